import { createCipheriv, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { u8aToHex } from '@polkadot/util';
import { base58Encode, blake2AsU8a, decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { isSubnetError } from '@subnet/core';
import type { SubnetError } from '@subnet/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WALLET_ERROR_CODES } from '../errors.js';
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

describe('a 64-byte secretSeed is a canonical secret key (sp-core from_seed_slice), refused naming its own field', () => {
  it('a non-canonical scalar in secretSeed: WALLET_INVALID_KEYFILE at keyfile.secretSeed', async () => {
    const file = keyfile({ secretSeed: `0x${'ff'.repeat(32)}${'00'.repeat(32)}` });
    expect(await failure(readKeyfile(file, { prompt: null, env: {} }))).toMatchObject({
      code: 'WALLET_INVALID_KEYFILE',
      context: { path: 'keyfile.secretSeed' },
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
  function fakeTerminal(...chunks: readonly (string | Buffer)[]): TtyInput {
    let listener: ((chunk: string | Buffer) => void) | undefined;
    return {
      isTTY: true,
      setRawMode: () => undefined,
      pause: () => undefined,
      resume: () => {
        queueMicrotask(() => {
          for (const chunk of chunks) listener?.(chunk);
        });
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

  it.each([
    ['^U kills what was typed before it (rpassword and the terminal both drop it)', 'wrong\u0015pw-5\r', 'pw-5'],
    ['^W erases the word before the cursor', 'pw-6 extra\u0017\r', 'pw-6'],
    ['a backspace erases a whole astral character, not half of it', 'pw-7\u{1f600}\u007f\r', 'pw-7'],
  ])('line editing as the terminal does it: %s', async (_name, typed, expected) => {
    expect(await ttyPasswordPrompt(fakeTerminal(typed), silent)!('Enter your password: ')).toBe(expected);
  });

  it('a UTF-8 character split across two chunks is read whole', async () => {
    const bytes = Buffer.from('pä\r', 'utf8');
    expect(await ttyPasswordPrompt(fakeTerminal(bytes.subarray(0, 2), bytes.subarray(2)), silent)!('Enter your password: ')).toBe('pä');
  });

  it("Ctrl-C is the terminal's SIGINT (raw mode sends none): refused with context.signal SIGINT; Ctrl-D is refused with no signal", async () => {
    const refusal = (typed: string): Promise<unknown> =>
      ttyPasswordPrompt(fakeTerminal(typed), silent)!('Enter your password: ').then(
        () => undefined,
        (e: unknown) => e,
      );
    const interrupted = await refusal('pw\u0003');
    expect(isSubnetError(interrupted, WALLET_ERROR_CODES.passwordUnavailable)).toBe(true);
    expect([(interrupted as SubnetError).message, (interrupted as SubnetError).context]).toEqual([
      '[WALLET_PASSWORD_UNAVAILABLE] the password prompt was interrupted (Ctrl-C)',
      { signal: 'SIGINT' },
    ]);
    const closed = await refusal('pw\u0004');
    expect(isSubnetError(closed, WALLET_ERROR_CODES.passwordUnavailable)).toBe(true);
    expect((closed as SubnetError).context.signal).toBeUndefined();
  });
});

describe('$ANSIBLE_VAULT as ansible-vault 0.2.1 decrypt_vault reads it (BufRead::lines, then str::lines)', () => {
  const vault = byPath('legacy/ansible-vault-hotkey');
  const original = readFileSync(join(VECTORS_DIR, vault.path), 'latin1');
  const [header, ...body] = original.split('\n');
  const inner = Buffer.from(body.join('').trim(), 'hex').toString('latin1');
  const rehex = (text: string): string => Buffer.from(text, 'latin1').toString('hex');
  const write = (text: string): string => {
    const file = join(dir, `vault${counter++}`);
    writeFileSync(file, text, { encoding: 'latin1', mode: 0o600 });
    return file;
  };
  const open = (file: string): Promise<unknown> => readKeyfile(file, { passwordFile: passwordFile(vault.password!), env: {}, prompt: null });
  function passwordFile(password: string): string {
    const file = join(dir, `pw${counter++}`);
    writeFileSync(file, password, { mode: 0o600 });
    return file;
  }

  it.each([
    ['CRLF line endings', original.replaceAll('\n', '\r\n')],
    ['the 6-space indentation encrypt_vault writes', `${header}\n${body.map((l) => (l === '' ? l : `      ${l}`)).join('\n')}`],
    ['a newline after the ciphertext line inside the hex', `${header}\n${rehex(`${inner}\n`)}\n`],
    ['CRLF between the inner lines', `${header}\n${rehex(inner.replaceAll('\n', '\r\n'))}\n`],
    ['a fourth inner line (decrypt reads three and ignores the rest)', `${header}\n${rehex(`${inner}\nffff`)}\n`],
  ])('%s: opened', async (_name, text) => {
    expect(await open(write(text))).toMatchObject({ address: vault.expected.ss58Address, encryption: 'ansible-vault' });
  });

  it.each([
    ['a header with a trailing space', `${header} \n${body.join('\n')}`],
    ['a header with a leading space', ` ${original}`],
    ['spaces inside an inner line', `${header}\n${rehex(inner.replace('\n', ' \n'))}\n`],
  ])('%s: refused as btwallet refuses it', async (_name, text) => {
    expect(await failure(open(write(text)))).toMatchObject({ code: 'WALLET_INVALID_KEYFILE' });
  });
});

describe('ss58Address as btwallet reads it (keyfile.rs:81-105; keypair.rs:55-119)', () => {
  const publicKey = decodeAddress(phraseFile.expected.ss58Address);
  /** Prefix 42 in SS58's two-byte form, built by hand from the SS58 rules (sp-core decodes it as 42). */
  const twoByte42 = (): string => {
    const body = new Uint8Array([0b0100_0000 | (42 >> 2), (42 & 0b11) << 6, ...publicKey]);
    const sum = blake2AsU8a(new Uint8Array([...new TextEncoder().encode('SS58PRE'), ...body]), 512).subarray(0, 2);
    return base58Encode(new Uint8Array([...body, ...sum]));
  };

  it('an address-only file with prefix 42 loads as a public key', async () => {
    expect(await readKeyfile(keyfile({ ss58Address: phraseFile.expected.ss58Address }), { prompt: null, env: {} })).toMatchObject({
      address: phraseFile.expected.ss58Address,
      source: 'ss58Address',
      pair: undefined,
    });
  });

  it.each([
    ['prefix 0 (Polkadot)', () => encodeAddress(publicKey, 0), 'prefix 0;'],
    ['prefix 2 (Kusama)', () => encodeAddress(publicKey, 2), 'prefix 2;'],
    ['prefix 42 in the two-byte form', twoByte42, 'prefix 42 in its two-byte form;'],
  ])('decision: an address-only file in %s is refused naming the field, the value, the prefix found and 42', async (_name, spell, found) => {
    const spelled = spell();
    const error = await failure(readKeyfile(keyfile({ ss58Address: spelled }), { prompt: null, env: {} }));
    expect(error).toMatchObject({ code: 'WALLET_INVALID_KEYFILE', context: { path: 'keyfile.ss58Address', value: spelled } });
    const message = (error as Error).message;
    expect(message).toContain(`ss58Address ${spelled} is an SS58 address with ${found}`);
    expect(message).toContain('btwallet writes prefix 42');
    expect(message).toContain(phraseFile.expected.ss58Address);
  });

  it('an address-only file holding the hex public key is refused, as btwallet refuses it (from_ss58check: not base58)', async () => {
    const error = await failure(readKeyfile(keyfile({ ss58Address: u8aToHex(publicKey) }), { prompt: null, env: {} }));
    expect(error).toMatchObject({ code: 'WALLET_INVALID_KEYFILE', context: { path: 'keyfile.ss58Address' } });
    expect((error as Error).message).toContain('is not an SS58 address of a 32-byte key');
  });

  it('"ss58Address": "" next to a secret is ignored, as btwallet ignores ss58Address there (not WALLET_KEY_MISMATCH)', async () => {
    expect(await readKeyfile(keyfile({ secretPhrase: phrase, ss58Address: '' }), { prompt: null, env: {} })).toMatchObject({
      address: phraseFile.expected.ss58Address,
      source: 'secretPhrase',
    });
  });

  it('"ss58Address": "" alone is not an address: refused, as btwallet refuses it ("Invalid SS58 address")', async () => {
    expect(await failure(readKeyfile(keyfile({ ss58Address: '' }), { prompt: null, env: {} }))).toMatchObject({
      code: 'WALLET_INVALID_KEYFILE',
      context: { path: 'keyfile.ss58Address' },
    });
  });
});

describe('PKCS#7 padding of an $ANSIBLE_VAULT plaintext (block-padding 0.2.1 against the writers)', () => {
  const vault = byPath('legacy/ansible-vault-hotkey');
  const password = vault.password!;
  /** An ansible vault sealed here with node's crypto (PBKDF2-SHA256 10000 → AES-256-CTR key, HMAC key, IV), padded as given. */
  function sealed(plaintext: Buffer, pad: number): string {
    const salt = randomBytes(32);
    const keys = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, 10_000, 80, 'sha256');
    const cipher = createCipheriv('aes-256-ctr', keys.subarray(0, 32), keys.subarray(64, 80));
    const ciphertext = Buffer.concat([cipher.update(Buffer.concat([plaintext, Buffer.alloc(pad, pad)])), cipher.final()]);
    const mac = createHmac('sha256', keys.subarray(32, 64)).update(ciphertext).digest();
    const inner = [salt, mac, ciphertext].map((b) => b.toString('hex')).join('\n');
    return `$ANSIBLE_VAULT;1.1;AES256\n${Buffer.from(inner, 'latin1').toString('hex')}\n`;
  }
  const open = (text: string): Promise<unknown> => {
    const file = join(dir, `vault${counter++}`);
    writeFileSync(file, text, { mode: 0o600 });
    const pw = join(dir, `pw${counter++}`);
    writeFileSync(pw, password, { mode: 0o600 });
    return readKeyfile(file, { passwordFile: pw, env: {}, prompt: null });
  };
  const plain = readFileSync(join(VECTORS_DIR, phraseFile.path));

  it('what every writer pads (1 to 16 bytes to the AES block; a whole block when already aligned) opens', async () => {
    const aligned = Buffer.concat([plain, Buffer.alloc((16 - (plain.length % 16)) % 16, 0x20)]);
    expect(await open(sealed(plain, 16 - (plain.length % 16)))).toMatchObject({ address: phraseFile.expected.ss58Address });
    expect(await open(sealed(aligned, 16))).toMatchObject({ address: phraseFile.expected.ss58Address });
  });

  it('decision: a pad of 17..255 equal bytes, which block-padding 0.2.1 takes but no writer makes, is refused', async () => {
    for (const pad of [17, 32, 255]) {
      const error = await failure(open(sealed(plain, pad)));
      expect(error).toMatchObject({ code: 'WALLET_INVALID_KEYFILE' });
      expect((error as Error).message).toContain('PKCS#7');
    }
  });
});

describe('a UTF-8 byte order mark is not skipped (serde_json and starts_with see it; TextDecoder drops it by default)', () => {
  it('BOM + a plain keyfile: WALLET_INVALID_KEYFILE, as serde_json refuses it', async () => {
    const file = join(dir, `bom${counter++}`);
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(VECTORS_DIR, phraseFile.path))]), { mode: 0o600 });
    expect(await failure(readKeyfile(file, { prompt: null, env: {} }))).toMatchObject({ code: 'WALLET_INVALID_KEYFILE' });
  });

  it.each([
    ['$NACL', 'wallets/miner/hotkeys/locked'],
    ['$ANSIBLE_VAULT', 'legacy/ansible-vault-hotkey'],
  ])('BOM + a %s file: not taken for an encrypted one (no password is asked), WALLET_INVALID_KEYFILE', async (_magic, vectorPath) => {
    const file = join(dir, `bom${counter++}`);
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(VECTORS_DIR, vectorPath))]), { mode: 0o600 });
    let asked = false;
    const prompt = (): Promise<string> => {
      asked = true;
      return Promise.resolve(byPath(vectorPath).password!);
    };
    expect(await failure(readKeyfile(file, { prompt, env: {} }))).toMatchObject({ code: 'WALLET_INVALID_KEYFILE' });
    expect(asked).toBe(false);
  });
});

describe('JSON strings serde_json cannot hold (keyfile.rs:75-78 parses into HashMap<String, Option<String>>)', () => {
  const phraseJson = JSON.stringify(phrase);
  it.each([
    ['a lone high surrogate escape in an unknown value', `{"secretPhrase":${phraseJson},"note":"\\ud800"}`],
    ['a lone low surrogate escape in a key', `{"secretPhrase":${phraseJson},"\\udc00":null}`],
  ])('%s: the whole file is refused', async (_name, text) => {
    const file = join(dir, `json${counter++}`);
    writeFileSync(file, text, { mode: 0o600 });
    expect(await failure(readKeyfile(file, { prompt: null, env: {} }))).toMatchObject({ code: 'WALLET_INVALID_KEYFILE' });
  });

  it('an escaped surrogate pair (one astral character) is fine', async () => {
    const file = join(dir, `json${counter++}`);
    writeFileSync(file, `{"secretPhrase":${phraseJson},"note":"\\ud83d\\ude00"}`, { mode: 0o600 });
    expect(await readKeyfile(file, { prompt: null, env: {} })).toMatchObject({ address: phraseFile.expected.ss58Address });
  });
});
