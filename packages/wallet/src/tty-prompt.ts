import { WALLET_ERROR_CODES, walletError } from './errors.js';

/** Asks for a password; resolves with what was typed. */
export type PasswordPrompt = (question: string) => Promise<string>;

/**
 * A password prompt on the controlling terminal: the question goes to stderr, nothing typed is echoed, the
 * answer is trimmed as btwallet trims it (`btwallet:src/keyfile.rs:146-164`). `undefined` when stdin is not a
 * TTY (a service under systemd or in a container): then a `BT_PW_` variable or a password file is needed.
 *
 * @returns the prompt, or `undefined` without a terminal
 * @example const prompt = ttyPasswordPrompt(); if (prompt) password = await prompt('Enter your password: ')
 */
export function ttyPasswordPrompt(): PasswordPrompt | undefined {
  const input = process.stdin;
  if (!input.isTTY) return undefined;
  return (question) =>
    new Promise<string>((resolve, reject) => {
      let typed = '';
      const finish = (): void => {
        input.setRawMode(false);
        input.pause();
        input.off('data', onData);
        process.stderr.write('\n');
      };
      const onData = (chunk: Buffer | string): void => {
        for (const ch of chunk.toString()) {
          if (ch === '\r' || ch === '\n') {
            finish();
            resolve(typed.trim());
            return;
          }
          if (ch === '\u0003' || ch === '\u0004') {
            finish();
            reject(walletError(WALLET_ERROR_CODES.passwordUnavailable, 'the password prompt was interrupted'));
            return;
          }
          typed = ch === '\u007f' || ch === '\b' ? typed.slice(0, -1) : typed + ch;
        }
      };
      process.stderr.write(question);
      input.setRawMode(true);
      input.resume();
      input.on('data', onData);
    });
}
