import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

import { pyStr } from './py-repr.js';
import type { PyValue } from './py-value.js';

/** `sha3_256("")`: the body hash of a synapse with no `required_hash_fields` (what most subnets send). */
export const EMPTY_BODY_HASH = 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a';

/**
 * The SDK's `Synapse.body_hash` (`bittensor/core/synapse.py:671-727`): `sha3_256_hex(h_1 + h_2 + ...)` with
 * `h_i = sha3_256_hex(str(v_i))` over the validated values of `required_hash_fields`, in that tuple's order.
 *
 * @param values - the validated values of the hashed fields, in hash order
 * @returns 64 lowercase hex characters
 * @example computeBodyHash([]) // EMPTY_BODY_HASH
 */
export function computeBodyHash(values: readonly PyValue[]): string {
  const joined = values.map((v) => bytesToHex(sha3_256(utf8ToBytes(pyStr(v))))).join('');
  return bytesToHex(sha3_256(utf8ToBytes(joined)));
}
