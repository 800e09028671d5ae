/**
 * How a command-line app ends when a reader closes one of its output pipes, the same in every app:
 * - standard output (`cli | head`): quietly with 141, as a Unix tool killed by SIGPIPE would, instead of printing an
 *   EPIPE stack;
 * - standard error (a log collector died, `2> >(head -0)`): what would go there is lost either way, so the run goes on
 *   and ends with its own exit code (2 for a usage error, say), not 1 for the failed write.
 *
 * Any other stream error is thrown, as before. Call it once, before the app writes anything.
 *
 * @example endQuietlyOnClosedPipes()
 */
export function endQuietlyOnClosedPipes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(141);
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
