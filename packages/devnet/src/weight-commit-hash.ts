import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';

function vecU16(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  values.forEach((v, i) => {
    out[i * 2] = v & 0xff;
    out[i * 2 + 1] = (v >> 8) & 0xff;
  });
  return u8aConcat(compactToU8a(values.length), out);
}

function u64le(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  let x = v;
  for (let i = 0; i < 8; i += 1) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/**
 * The commit-reveal v2 hash: blake2_256 of SCALE `(who, netuid_index, uids, values, salt, version_key)`
 * (chain README 2.4 / `get_commit_hash`).
 *
 * @param who - hotkey public key (32 bytes or 0x hex)
 * @param netuidIdx - mechanism storage index (`mecid * 4096 + netuid`)
 * @param uids - uids as revealed
 * @param values - values as revealed (not upscaled)
 * @param salt - u16 salt
 * @param versionKey - version key
 * @returns the 0x hash
 * @example
 * weightCommitHash(alice, 1, [0, 1, 2], [65535, 32768, 1], [1, 2, 3, 4, 5, 6, 7, 8], 10002000n);
 */
export function weightCommitHash(
  who: Uint8Array | string,
  netuidIdx: number,
  uids: readonly number[],
  values: readonly number[],
  salt: readonly number[],
  versionKey: bigint,
): string {
  const account = typeof who === 'string' ? hexToU8a(who) : who;
  const data = u8aConcat(account, new Uint8Array([netuidIdx & 0xff, (netuidIdx >> 8) & 0xff]), vecU16(uids), vecU16(values), vecU16(salt), u64le(versionKey));
  return u8aToHex(blake2AsU8a(data, 256));
}
