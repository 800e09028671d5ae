import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { decodePasswordEnv } from '../password-env.js';
import { readKeyfile } from '../read-keyfile.js';
import { ttyPasswordPrompt } from '../tty-prompt.js';
import type { TtyInput } from '../tty-prompt.js';
import type { VectorFile } from './helpers.js';
import { VECTORS_DIR, walletIndex } from './helpers.js';

/**
 * Inputs btwallet 4.0.0 (opentensor/btwallet@93b3761) reads one way and this package read another. Every expected
 * key comes from the shared vectors (shared/vectors/wallets/index.json), never from this package.
 */

const index = walletIndex();
const byPath = (p: string): VectorFile => index.files.find((f) => f.path === p)!;
const phraseFile = byPath('wallets/miner/hotkeys/default');
const seedFile = byPath('wallets/miner/hotkeys/seeded');
const phrase = (JSON.parse(readFileSync(join(VECTORS_DIR, phraseFile.path), 'utf8')) as { secretPhrase: string }).secretPhrase;
const seed = (JSON.parse(readFileSync(join(VECTORS_DIR, seedFile.path), 'utf8')) as { secretSeed: string }).secretSeed;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-parity-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function keyfile(content: Record<string, unknown>): string {
  const file = join(dir, `key${counter++}`);
  writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
  return file;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('secretPhrase: sp-core parses it with the bip39 crate, split_whitespace (keypair.rs:137-148)', () => {
  const words = phrase.split(' ');
  it.each([
    ['two spaces between words', words.join('  ')],
    ['leading and trailing spaces', `  ${phrase} `],
    ['a trailing newline (a phrase pasted from a file)', `${phrase}\n`],
    ['one word per line', words.join('\n')],
    ['CRLF and tabs', words.join('\t\r\n')],
    ['no-break spaces (Unicode White_Space)', words.join('\u00a0')],
  ])('%s: the same key as the single-spaced phrase', async (_name, variant) => {
    const key = await readKeyfile(keyfile({ secretPhrase: variant }), { prompt: null, env: {} });
    expect(u8aToHex(key.publicKey)).toBe(phraseFile.expected.publicKey);
    expect(key.address).toBe(phraseFile.expected.ss58Address);
    expect(key.source).toBe('secretPhrase');
  });

  it('upper case is still refused, as the bip39 word list is compared exactly', async () => {
    expect(await failure(readKeyfile(keyfile({ secretPhrase: phrase.toUpperCase() }), { prompt: null, env: {} }))).toMatchObject({
      code: 'WALLET_INVALID_KEYFILE',
      context: { path: 'keyfile.secretPhrase' },
    });
  });

  it('a zero-width no-break space (U+FEFF, not White_Space) between words is refused', async () => {
    expect(await failure(readKeyfile(keyfile({ secretPhrase: words.join('\ufeff') }), { prompt: null, env: {} }))).toMatchObject({
      code: 'WALLET_INVALID_KEYFILE',
    });
  });
});

describe('privateKey: read with from_seed_slice, so 32 bytes are a mini-secret (keypair.rs:162-174)', () => {
  it('a 32-byte privateKey loads as the seed it is', async () => {
    const key = await readKeyfile(keyfile({ privateKey: seed }), { prompt: null, env: {} });
    expect(u8aToHex(key.publicKey)).toBe(seedFile.expected.publicKey);
    expect(key.address).toBe(seedFile.expected.ss58Address);
    expect(key.source).toBe('privateKey');
  });

  it('a 48-byte privateKey is refused, naming the field', async () => {
    expect(await failure(readKeyfile(keyfile({ privateKey: `0x${'11'.repeat(48)}` }), { prompt: null, env: {} }))).toMatchObject({
      code: 'WALLET_INVALID_KEYFILE',
      context: { path: 'keyfile.privateKey' },
    });
  });
});

describe("BT_PW_ values: base64's STANDARD engine refuses non-canonical trailing bits (keyfile.rs:232-234)", () => {
  it('QR== (trailing bits set; Node alone reads it as QQ==) is refused', () => {
    expect(() => decodePasswordEnv('QR==', 'BT_PW__X')).toThrow(expect.objectContaining({ code: 'WALLET_INVALID_PASSWORD_ENV' }) as Error);
    expect(() => decodePasswordEnv('QUJ=', 'BT_PW__X')).toThrow(expect.objectContaining({ code: 'WALLET_INVALID_PASSWORD_ENV' }) as Error);
  });

  it('the canonical forms still decode', () => {
    for (const e of index.password_env_var_examples) expect(decodePasswordEnv(e.env_var_value, e.env_var_name)).toBe(e.password);
  });
});

describe("the prompted password is trimmed with Rust's str::trim (keyfile.rs:163, utils.rs:158)", () => {
  function fakeTerminal(typed: string): TtyInput {
    let listener: ((chunk: string) => void) | undefined;
    return {
      isTTY: true,
      setRawMode: () => undefined,
      pause: () => undefined,
      resume: () => {
        queueMicrotask(() => listener?.(typed));
      },
      on: (_event, l) => {
        listener = l;
      },
      off: () => {
        listener = undefined;
      },
    };
  }
  const silent = { write: () => true };

  it.each([
    ['spaces and a tab around it', ' \tpw-1 \r', 'pw-1'],
    ['U+0085 NEXT LINE (White_Space: Rust trims it, JavaScript trim does not)', 'pw-2\u0085\r', 'pw-2'],
    ['U+FEFF (not White_Space: Rust keeps it, JavaScript trim strips it)', '\ufeffpw-3\r', '\ufeffpw-3'],
    ['an ideographic space U+3000 (both trim it)', '\u3000pw-4\u3000\n', 'pw-4'],
  ])('%s', async (_name, typed, expected) => {
    const prompt = ttyPasswordPrompt(fakeTerminal(typed), silent);
    expect(prompt).toBeDefined();
    expect(await prompt!('Enter your password: ')).toBe(expected);
  });
});
