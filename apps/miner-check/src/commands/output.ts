/** What every subcommand returns: one JSON object (snake_case) for --json, and the readable text. */
export interface CommandOutput {
  readonly json: Record<string, unknown>;
  readonly text: string;
}
