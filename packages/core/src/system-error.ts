/**
 * The operating system's reason for a failed file or socket operation, for messages that lead with the cause.
 */

/**
 * The OS error code of a Node.js system error and its meaning as Node words it: `ENOENT (no such file or directory)`,
 * `EISDIR (illegal operation on a directory)`, `EADDRINUSE (address already in use)`. Only the code and the words after
 * it are kept from the message (never the path or address Node appends, so nothing of the caller's leaks through it).
 *
 * @param error - what a `node:fs` or `node:net` call threw (anything: a value without a string `code` gives undefined)
 * @returns `CODE (meaning)`, the code alone when the message does not word it, or undefined for an error without an
 *   OS code
 * @example describeSystemError(Object.assign(new Error("ENOENT: no such file or directory, open 'x.json'"), { code: 'ENOENT' })) // 'ENOENT (no such file or directory)'
 */
export function describeSystemError(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  // Node words it right after the code, in lower-case words, then the syscall's path or address: `ENOENT: no such file
  // or directory, open 'x.json'`, `listen EADDRINUSE: address already in use 127.0.0.1:9944`.
  const meaning = typeof message === 'string' ? new RegExp(`(?:^|\\s)${code}: ([a-z][a-z' -]*[a-z])`).exec(message)?.[1] : undefined;
  return meaning === undefined ? code : `${code} (${meaning})`;
}
