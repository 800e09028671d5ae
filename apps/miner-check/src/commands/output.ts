/** What every subcommand returns: one JSON object (snake_case) for --json, and the readable text. */
export interface CommandOutput {
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** What a command read, for explaining its errors (`report` in program.ts). */
export interface ErrorContext {
  /** The documents by the label their errors' paths start with (for `missingKeyHint`). */
  readonly documents: Readonly<Record<string, unknown>>;
  /** Where the document an error's path starts in was read from, when the path alone does not say (`members[1]`). */
  readonly sourceOf?: (path: string) => string | undefined;
}
