import type { SpawnOptions } from 'node:child_process';

/** How a command ended whose standard output was a pipe closed by its reader before it wrote. */
export interface ClosedPipeRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Runs `command` with `args` (stdout: a pipe already closed by the reader), killed after `timeout` ms (60 s). */
export function runWithClosedStdout(command: string, args: readonly string[], options?: SpawnOptions & { timeout?: number }): Promise<ClosedPipeRun>;

/** How a command ended whose standard error was a pipe closed by its reader before it wrote. */
export interface ClosedStderrRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

/** Runs `command` with `args` (stderr: a pipe already closed by the reader), killed after `timeout` ms (60 s). */
export function runWithClosedStderr(command: string, args: readonly string[], options?: SpawnOptions & { timeout?: number }): Promise<ClosedStderrRun>;
