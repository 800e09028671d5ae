import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { u8aToHex } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readKeyfile } from '../read-keyfile.js';
import type { VectorFile } from './helpers.js';
import { copyVectors, referencePasswordEnv, walletIndex } from './helpers.js';

/** Every file of ../shared/vectors/wallets loads to the address its index expects (WALLETS.md section 7). */

const index = walletIndex();
let dir: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir, cleanup } = copyVectors());
});
afterAll(() => {
  cleanup();
});

function passwordFile(name: string, password: string): string {
  const file = join(dir, `${name}.password`);
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return file;
}

const plain = index.files.filter((f) => !f.encrypted);
const encrypted = index.files.filter((f) => f.encrypted);

describe('plain keyfiles in every form btwallet writes', () => {
  it.each(plain.map((f) => [f.path, f] as const))('%s loads to its expected address', async (_path, file: VectorFile) => {
    const key = await readKeyfile(join(dir, file.path), { prompt: null, env: {} });
    expect(key.address).toBe(file.expected.ss58Address);
    expect(u8aToHex(key.publicKey)).toBe(file.expected.publicKey);
    expect(key.source).toBe(file.btwallet_load_source);
    expect(key.encryption).toBe('none');
    expect(key.pair === undefined).toBe(file.kind === 'pub');
  });

  it('the privateKey-only file signs for its address (the canonical scalar is converted, not used as is)', async () => {
    const file = plain.find((f) => f.kind === 'privkey')!;
    const key = await readKeyfile(join(dir, file.path), { prompt: null, env: {} });
    const message = new TextEncoder().encode('wallet vector check');
    expect(signatureVerify(message, key.pair!.sign(message), file.expected.ss58Address).isValid).toBe(true);
    expect(u8aToHex(key.publicKey)).not.toBe(file.expected.wrong_publicKey_if_privateKey_used_unconverted);
  });
});

describe('encrypted keyfiles, each through another password source', () => {
  const byPath = (p: string): VectorFile => encrypted.find((f) => f.path === p)!;

  it('$NACL coldkey: the password from wallet.password_file (one trailing newline ignored)', async () => {
    const file = byPath('wallets/miner/coldkey');
    const key = await readKeyfile(join(dir, file.path), { passwordFile: passwordFile('coldkey', file.password!), prompt: null, env: {} });
    expect([key.address, key.encryption, key.source]).toEqual([file.expected.ss58Address, 'nacl', file.btwallet_load_source]);
  });

  it("$NACL hotkey: the password from btwallet's BT_PW_<PATH> variable, encoded as btwallet encodes it", async () => {
    const file = byPath('wallets/miner/hotkeys/locked');
    const path = join(dir, file.path);
    const variable = `BT_PW_${path.replaceAll('/', '_').replaceAll('.', '_').toUpperCase()}`;
    const key = await readKeyfile(path, { prompt: null, env: { [variable]: referencePasswordEnv(file.password!, variable) } });
    expect([key.address, key.encryption, key.source]).toEqual([file.expected.ss58Address, 'nacl', file.btwallet_load_source]);
  });

  it('legacy $ANSIBLE_VAULT hotkey: the password from the prompt', async () => {
    const file = byPath('legacy/ansible-vault-hotkey');
    const asked: string[] = [];
    const key = await readKeyfile(join(dir, file.path), {
      env: {},
      prompt: (q) => {
        asked.push(q);
        return Promise.resolve(file.password!);
      },
    });
    expect([key.address, key.encryption, key.source]).toEqual([file.expected.ss58Address, 'ansible-vault', file.btwallet_load_source]);
    expect(asked).toHaveLength(1);
  });

  it('covers every encrypted file of the index', () => {
    expect(encrypted.map((f) => f.path).sort()).toEqual(['legacy/ansible-vault-hotkey', 'wallets/miner/coldkey', 'wallets/miner/hotkeys/locked']);
  });
});
