import { blake2b } from '@noble/hashes/blake2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';

import { invalidArgument, requireString } from './arguments.js';
import { CORE_ERROR_CODES } from './error-codes.js';
import { isSubnetError, SubnetError } from './errors.js';

const SS58_PREFIX = utf8ToBytes('SS58PRE');

/** Bittensor's SS58 network prefix (the generic Substrate one). */
export const BITTENSOR_SS58_PREFIX = 42;

/** A decoded SS58 address. */
export interface DecodedSs58 {
  /** The network prefix (0..16383). */
  readonly prefix: number;
  /** The 32-byte account id (public key). */
  readonly publicKey: Uint8Array;
}

/** The base58 digits of Bitcoin's alphabet, which SS58 uses: no 0, O, I or l. */
const BASE58_DIGITS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Why text that base58 cannot decode is no address, in words a miner who pasted the wrong string can act on:
 * a hex public key is named as such, anything else by its first character outside the alphabet and where it is.
 */
function outsideBase58(address: string): string {
  if (/^0x[0-9a-fA-F]{64}$/.test(address)) {
    return (
      'this is a 32-byte public key written in hex (0x and 64 hex digits), not its SS58 address; ' +
      `write the key as its SS58 address (network prefix ${BITTENSOR_SS58_PREFIX}, starting with 5)`
    );
  }
  let position = 0;
  for (const character of address) {
    position++;
    if (!BASE58_DIGITS.includes(character)) {
      return (
        `the character ${JSON.stringify(character)} at position ${position} is not a base58 digit ` +
        '(an SS58 address is written with 1-9 and the letters but 0, O, I and l)'
      );
    }
  }
  return 'it contains characters outside the base58 alphabet';
}

function checksum(payload: Uint8Array): Uint8Array {
  const input = new Uint8Array(SS58_PREFIX.length + payload.length);
  input.set(SS58_PREFIX);
  input.set(payload, SS58_PREFIX.length);
  return blake2b(input, { dkLen: 64 }).subarray(0, 2);
}

/**
 * Decodes an SS58 address of a 32-byte account and verifies its checksum (blake2b-512 over
 * `"SS58PRE" ‖ prefix ‖ public key`, first two bytes).
 *
 * @param address - the SS58 text
 * @returns the prefix and the 32-byte public key
 * @throws SubnetError `CORE_INVALID_SS58` naming what is wrong (alphabet, length, prefix, checksum);
 *   `CORE_INVALID_ARGUMENT` when `address` is not a string
 * @example decodeSs58('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY').prefix // 42
 */
export function decodeSs58(address: string): DecodedSs58 {
  requireString(address, 'address');
  const fail = (why: string): never => {
    throw new SubnetError(CORE_ERROR_CODES.invalidSs58, `not a valid SS58 address: ${why}`, { context: { value: address } });
  };
  if (address === '') return fail('the text is empty');
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return fail(outsideBase58(address));
  }
  // The byte count first: a character missing or extra changes every byte of a base58 number, the first included,
  // so read as an address it would be blamed on its network prefix.
  const wrongLength = (expected: string): never =>
    fail(
      `it is ${address.length} characters long and decodes to ${bytes.length} bytes, where the address of a 32-byte account ` +
        `${expected}: a character is missing or extra, or this is no account address (a Bittensor address is 48 characters ` +
        `and starts with 5)`,
    );
  if (bytes.length !== 35 && bytes.length !== 36) return wrongLength('decodes to 35 (36 with a two-byte network prefix)');
  const first = bytes[0] ?? 0;
  let prefixLength: number;
  let prefix: number;
  if (first < 64) {
    prefixLength = 1;
    prefix = first;
  } else if (first < 128) {
    const second = bytes[1] ?? 0;
    prefixLength = 2;
    prefix = ((first & 0b0011_1111) << 2) | (second >> 6) | ((second & 0b0011_1111) << 8);
  } else {
    // SS58 keeps first bytes 128 to 255 for address formats it has not defined: no network writes one, so the text
    // is nobody's address. Said in words a miner who pasted the wrong string can act on.
    return fail(
      `its first byte is ${first}, and no address starts so: an SS58 address's first byte holds its network prefix and is below 128 ` +
        `(128 to 255 are kept for formats not defined yet), so this text is no account address of any network; ` +
        `use a Bittensor address (network prefix ${BITTENSOR_SS58_PREFIX}, starting with 5)`,
    );
  }
  if (bytes.length !== prefixLength + 32 + 2) return wrongLength(`with this first byte decodes to ${prefixLength + 34}`);
  const body = bytes.subarray(0, prefixLength + 32);
  const expected = checksum(body);
  if (bytes[prefixLength + 32] !== expected[0] || bytes[prefixLength + 33] !== expected[1]) {
    return fail(
      'its last two bytes, the checksum, do not match the rest: a character is mistyped or two are swapped; copy the address again from where it was made',
    );
  }
  return { prefix, publicKey: bytes.slice(prefixLength, prefixLength + 32) };
}

/**
 * Encodes a 32-byte public key as an SS58 address.
 *
 * @param publicKey - 32 bytes
 * @param prefix - network prefix 0..16383, default 42 (Bittensor)
 * @returns the SS58 text
 * @throws SubnetError `CORE_INVALID_SS58` when the key is not 32 bytes or the prefix is out of range;
 *   `CORE_INVALID_ARGUMENT` when `publicKey` is not a Uint8Array
 * @example encodeSs58(alicePublicKey) // '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'
 */
export function encodeSs58(publicKey: Uint8Array, prefix: number = BITTENSOR_SS58_PREFIX): string {
  if (!(publicKey instanceof Uint8Array)) invalidArgument('publicKey', 'must be a Uint8Array of 32 bytes', publicKey);
  if (publicKey.length !== 32) {
    throw new SubnetError(CORE_ERROR_CODES.invalidSs58, 'a public key must be 32 bytes', {
      context: { path: 'publicKey.length', value: publicKey.length },
    });
  }
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 16383) {
    throw new SubnetError(CORE_ERROR_CODES.invalidSs58, 'an SS58 prefix is an integer from 0 to 16383', {
      context: { path: 'prefix', value: prefix },
    });
  }
  const head = prefix < 64 ? Uint8Array.of(prefix) : Uint8Array.of(((prefix & 0b1111_1100) >> 2) | 0b0100_0000, (prefix >> 8) | ((prefix & 0b11) << 6));
  const body = new Uint8Array(head.length + 32);
  body.set(head);
  body.set(publicKey, head.length);
  const sum = checksum(body);
  const full = new Uint8Array(body.length + 2);
  full.set(body);
  full.set(sum, body.length);
  return base58.encode(full);
}

/**
 * How an SS58 text stands to the one spelling Bittensor writes and the metagraph uses: prefix 42 in its one-byte
 * form, exactly as {@link encodeSs58} writes the key. `canonical`: it is that spelling; `wrong_prefix`: a valid
 * address of a 32-byte key in another spelling (another prefix, or 42's two-byte form), with `found` naming the
 * prefix and `canonical` the same key's address in the one spelling; `not_ss58`: no SS58 address of a 32-byte key
 * at all, `why` saying what is wrong and `error` the decoder's error.
 */
export type Ss58Spelling =
  | { readonly kind: 'canonical'; readonly publicKey: Uint8Array }
  | { readonly kind: 'wrong_prefix'; readonly found: string; readonly canonical: string; readonly publicKey: Uint8Array }
  | { readonly kind: 'not_ss58'; readonly why: string; readonly error: unknown };

/**
 * Tells whether `text` is a key's one Bittensor spelling (see {@link Ss58Spelling}); never throws for a string.
 * The validator's signed requests and ingest bodies and `@subnet/wallet`'s address-only keyfiles take only
 * `canonical`, and name `found` and `canonical` when refusing another spelling.
 *
 * @param text - the SS58 text as given
 * @returns the spelling and, for a valid address, the public key
 * @example ss58Spelling(encodeSs58(key, 0)) // { kind: 'wrong_prefix', found: 'prefix 0', canonical: encodeSs58(key), publicKey: key }
 */
export function ss58Spelling(text: string): Ss58Spelling {
  let decoded: DecodedSs58;
  try {
    decoded = decodeSs58(text);
  } catch (error) {
    const why = isSubnetError(error) ? error.message.replace(/^not a valid SS58 address: /, '') : 'not decodable';
    return { kind: 'not_ss58', why, error };
  }
  const canonical = encodeSs58(decoded.publicKey, BITTENSOR_SS58_PREFIX);
  if (text === canonical) return { kind: 'canonical', publicKey: decoded.publicKey };
  const found = decoded.prefix === BITTENSOR_SS58_PREFIX ? `prefix ${decoded.prefix} in its two-byte form` : `prefix ${decoded.prefix}`;
  return { kind: 'wrong_prefix', found, canonical, publicKey: decoded.publicKey };
}
