import { StringDecoder } from 'node:string_decoder';

import { WALLET_ERROR_CODES, walletError } from './errors.js';

/** The terminal a prompt reads (`process.stdin` by default). */
export interface TtyInput {
  readonly isTTY?: boolean;
  setRawMode(raw: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
}

/**
 * Rust's `str::trim`, which btwallet applies to a prompted password: it strips Unicode `White_Space` (so U+0085
 * NEXT LINE too), while JavaScript's `trim` also strips U+FEFF and keeps U+0085.
 */
function trimLikeRust(text: string): string {
  return text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

/** Asks for a password; resolves with what was typed. */
export type PasswordPrompt = (question: string) => Promise<string>;

/**
 * A password prompt on the controlling terminal: the question goes to stderr, nothing typed is echoed, the
 * answer is trimmed as btwallet trims it (`btwallet:src/keyfile.rs:146-164`). `undefined` when stdin is not a
 * TTY (a service under systemd or in a container): then a `BT_PW_` variable or a password file is needed. Ctrl-C
 * rejects with `WALLET_PASSWORD_UNAVAILABLE` and `context.signal` `'SIGINT'` (the terminal is in raw mode, so no
 * signal is sent: a caller that stops on SIGINT should stop on this too); Ctrl-D rejects with the same code, no signal.
 *
 * @param input - the terminal (default `process.stdin`)
 * @param output - where the question goes (default `process.stderr`)
 * @returns the prompt, or `undefined` without a terminal
 * @example const prompt = ttyPasswordPrompt(); if (prompt) password = await prompt('Enter your password: ')
 */
export function ttyPasswordPrompt(input: TtyInput = process.stdin, output: { write(text: string): unknown } = process.stderr): PasswordPrompt | undefined {
  if (input.isTTY !== true) return undefined;
  return (question) =>
    new Promise<string>((resolve, reject) => {
      let typed = '';
      const finish = (): void => {
        input.setRawMode(false);
        input.pause();
        input.off('data', onData);
        output.write('\n');
      };
      const decoder = new StringDecoder('utf8'); // a character split across two chunks stays whole
      const onData = (chunk: Buffer | string): void => {
        for (const ch of typeof chunk === 'string' ? chunk : decoder.write(chunk)) {
          if (ch === '\r' || ch === '\n') {
            finish();
            resolve(trimLikeRust(typed));
            return;
          }
          // Raw mode turns off the terminal's signals: Ctrl-C reaches us as a character, where btwallet's prompt (echo
          // off, signals on) would be sent SIGINT. The refusal says so (`context.signal`), so a caller can stop as on SIGINT.
          if (ch === '\u0003') {
            finish();
            reject(walletError(WALLET_ERROR_CODES.passwordUnavailable, 'the password prompt was interrupted (Ctrl-C)', { signal: 'SIGINT' }));
            return;
          }
          if (ch === '\u0004') {
            finish();
            reject(walletError(WALLET_ERROR_CODES.passwordUnavailable, 'the password prompt was closed (Ctrl-D) before Enter'));
            return;
          }
          // What the terminal's line editing does for btwallet's rpassword prompt (canonical mode, echo off):
          // erase one character, ^U kill the line, ^W erase the word before the cursor.
          if (ch === '\u007f' || ch === '\b') typed = typed.replace(/[\s\S]$/u, '');
          else if (ch === '\u0015') typed = '';
          else if (ch === '\u0017') typed = typed.replace(/\S*\s*$/u, '');
          else typed += ch;
        }
      };
      output.write(question);
      input.setRawMode(true);
      input.resume();
      input.on('data', onData);
    });
}
