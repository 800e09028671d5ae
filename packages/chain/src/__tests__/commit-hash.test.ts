import { readFileSync } from 'node:fs';

import { u8aToHex } from '@polkadot/util';
import { describe, expect, it } from 'vitest';

import { commitPreimage, mechanismStorageIndex, weightCommitHash } from '../commit-hash.js';

interface Vector {
  blake2b_256: string;
  hotkey_pubkey: string;
  netuid_index: number;
  preimage_hex: string;
  salt: number[];
  uids: number[];
  values: number[];
  version_key: number;
}
const vectors = JSON.parse(readFileSync(new URL('./fixtures/sdk-weight-utils.json', import.meta.url), 'utf8')) as Record<string, Vector>;

describe('CR v2 commit hash (SDK generate_weight_hash / chain get_commit_hash)', () => {
  for (const name of ['commit_hash_alice_netuid1', 'commit_hash_alice_netuid1_mech1']) {
    const v = vectors[name]!;
    it(`matches the golden vector ${name}`, () => {
      const input = { hotkey: v.hotkey_pubkey, netuidIndex: v.netuid_index, uids: v.uids, values: v.values, salt: v.salt, versionKey: v.version_key };
      expect(u8aToHex(commitPreimage(input))).toBe(v.preimage_hex);
      expect(weightCommitHash(input)).toBe(v.blake2b_256);
    });
  }
  it('accepts the hotkey as an SS58 address (//Alice) with the same hash', () => {
    const v = vectors['commit_hash_alice_netuid1']!;
    expect(
      weightCommitHash({
        hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
        netuidIndex: 1,
        uids: v.uids,
        values: v.values,
        salt: v.salt,
        versionKey: BigInt(v.version_key),
      }),
    ).toBe(v.blake2b_256);
  });
  it('hashes the mechanism storage index mecid*4096+netuid', () => {
    expect(mechanismStorageIndex(1, 1)).toBe(4097);
    expect(mechanismStorageIndex(7)).toBe(7);
    expect(() => mechanismStorageIndex(4096)).toThrow(/CHAIN_INVALID_INPUT/);
  });
  it('rejects a value that is not a u16 with a typed error naming the path', () => {
    expect(() =>
      weightCommitHash({ hotkey: vectors['commit_hash_alice_netuid1']!.hotkey_pubkey, netuidIndex: 1, uids: [0], values: [65536], salt: [1], versionKey: 0 }),
    ).toThrow(/CHAIN_INVALID_INPUT.*values\[0\].*65536/);
  });
});
