import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

import type { BytesLike } from './bytes.js';
import { concatBytes, equalBytes, toBytes, u64Bytes } from './bytes.js';
import { decodeG2 } from './curve.js';
import { timelockError } from './errors.js';

/** The tle cipher-suite label of AES-256-GCM bodies: `"AES_GCM_"`. */
export const TLE_CIPHER_SUITE = 'AES_GCM_';

/**
 * Bytes a ciphertext adds to its message: 96 (U) + 8+32 (V) + 8+32 (W) + 8 (body length) + 8+16 (AES
 * ciphertext length, tag) + 8+12 (nonce) + 8+8 (suite) = 244. A commit of an n-byte payload is 244 + n bytes.
 */
export const CIPHERTEXT_OVERHEAD_BYTES = 244;

/**
 * A parsed tle `TLECiphertext<TinyBLS381>` (ideal-lab5/timelock rev 5416406): the IBE header `(U, V, W)`,
 * the AES-GCM body and the cipher-suite label.
 */
export interface TimelockCiphertext {
  /** `U = r * G2`, 96-byte compressed G2 point. */
  readonly u: Uint8Array;
  /** `V = sigma xor H2(e(Q_id, r * P_pub))`, 32 bytes. */
  readonly v: Uint8Array;
  /** `W = esk xor sha256(sigma)`, 32 bytes. */
  readonly w: Uint8Array;
  /** AES-256-GCM ciphertext followed by its 16-byte tag (n + 16 bytes). */
  readonly aesCiphertext: Uint8Array;
  /** The 12-byte AES-GCM nonce. */
  readonly nonce: Uint8Array;
  /** The cipher-suite label, `"AES_GCM_"` (8 bytes). */
  readonly cipherSuite: Uint8Array;
}

/** Options of {@link parseCiphertext}. */
export interface ParseCiphertextOptions {
  /**
   * Parse exactly as Subtensor does (`deserialize_compressed` on a reader): bytes after the ciphertext and
   * after the AES body are ignored, and the cipher-suite label is not checked (tle's `tld` never reads it).
   * Default false: strict, every byte accounted for and the label must be `"AES_GCM_"`.
   */
  readonly chainCompatible?: boolean;
}

const SUITE_BYTES = utf8ToBytes(TLE_CIPHER_SUITE);

interface Reader {
  readonly bytes: Uint8Array;
  offset: number;
  readonly label: string;
}

function invalid(summary: string, path: string, value: unknown, offset: number): never {
  throw timelockError('TIMELOCK_INVALID_CIPHERTEXT', summary, { path, value, offset });
}

function take(reader: Reader, length: number, path: string): Uint8Array {
  if (reader.bytes.length - reader.offset < length) {
    invalid(`${path} needs ${length} bytes but only ${reader.bytes.length - reader.offset} remain`, path, reader.bytes.length, reader.offset);
  }
  const out = reader.bytes.slice(reader.offset, reader.offset + length);
  reader.offset += length;
  return out;
}

/** An arkworks `Vec<u8>`: u64 little-endian length, then the bytes. */
function takeVec(reader: Reader, path: string): Uint8Array {
  const prefix = take(reader, 8, `${path}.length`);
  const length = new DataView(prefix.buffer, prefix.byteOffset, 8).getBigUint64(0, true);
  const remaining = BigInt(reader.bytes.length - reader.offset);
  if (length > remaining) {
    invalid(`${path} declares ${length} bytes but only ${remaining} remain`, `${path}.length`, length, reader.offset - 8);
  }
  return take(reader, Number(length), path);
}

function vec(bytes: Uint8Array): Uint8Array {
  return concatBytes(u64Bytes(BigInt(bytes.length), true), bytes);
}

/**
 * Parses commit bytes in the arkworks compressed layout of tle rev 5416406:
 * `U(96) | u64le(32) V | u64le(32) W | u64le(B) [u64le(n+16) aes_ct||tag | u64le(12) nonce] | u64le(8) "AES_GCM_"`.
 * U must be a valid G2 point of the prime-order subgroup (not the identity); V and W must be 32 bytes (the
 * only lengths tle can decrypt without panicking), the AES part at least the 16-byte tag, the nonce 12 bytes.
 *
 * @param bytes - the commit (Uint8Array or hex)
 * @param options - `chainCompatible` to ignore trailing bytes and the suite label as the chain does
 * @returns the frozen parsed ciphertext
 * @throws SubnetError `TIMELOCK_INVALID_CIPHERTEXT` naming the field (`ciphertext.v.length`, ...) and the byte offset
 * @example parseCiphertext(commit).nonce.length // 12
 */
export function parseCiphertext(bytes: BytesLike, options: ParseCiphertextOptions = {}): TimelockCiphertext {
  const chain = options.chainCompatible === true;
  const reader: Reader = { bytes: toBytes(bytes, 'ciphertext', 'TIMELOCK_INVALID_CIPHERTEXT'), offset: 0, label: 'ciphertext' };
  const u = take(reader, 96, 'ciphertext.u');
  decodeG2(u, 'TIMELOCK_INVALID_CIPHERTEXT', 'ciphertext.u');
  const v = takeVec(reader, 'ciphertext.v');
  if (v.length !== 32) invalid('V must be 32 bytes', 'ciphertext.v.length', v.length, 96);
  const w = takeVec(reader, 'ciphertext.w');
  if (w.length !== 32) invalid('W must be 32 bytes', 'ciphertext.w.length', w.length, 136);
  const bodyStart = reader.offset + 8;
  const body = takeVec(reader, 'ciphertext.body');
  const bodyReader: Reader = { bytes: body, offset: 0, label: 'body' };
  const aesCiphertext = takeVec(bodyReader, 'ciphertext.body.aesCiphertext');
  if (aesCiphertext.length < 16) {
    invalid('the AES-GCM part must hold at least the 16-byte tag', 'ciphertext.body.aesCiphertext.length', aesCiphertext.length, bodyStart);
  }
  const nonce = takeVec(bodyReader, 'ciphertext.body.nonce');
  if (nonce.length !== 12) invalid('the AES-GCM nonce must be 12 bytes', 'ciphertext.body.nonce.length', nonce.length, bodyStart + bodyReader.offset);
  if (!chain && bodyReader.offset !== body.length) {
    invalid(
      `${body.length - bodyReader.offset} unexpected bytes after the nonce inside the body`,
      'ciphertext.body',
      body.length,
      bodyStart + bodyReader.offset,
    );
  }
  const suiteOffset = reader.offset;
  const cipherSuite = takeVec(reader, 'ciphertext.cipherSuite');
  if (!chain && !equalBytes(cipherSuite, SUITE_BYTES)) {
    invalid(`unknown cipher suite (expected "${TLE_CIPHER_SUITE}")`, 'ciphertext.cipherSuite', bytesToHex(cipherSuite), suiteOffset);
  }
  if (!chain && reader.offset !== reader.bytes.length) {
    invalid(`${reader.bytes.length - reader.offset} unexpected trailing bytes`, 'ciphertext', reader.bytes.length, reader.offset);
  }
  return Object.freeze({ u, v, w, aesCiphertext, nonce, cipherSuite });
}

/**
 * Serialises a ciphertext to the commit bytes (arkworks compressed, u64-LE length prefixes): 244 + n bytes
 * for an n-byte message.
 *
 * @param ciphertext - the parts; U is checked to be a valid G2 point, lengths as in {@link parseCiphertext}
 * @returns the commit bytes
 * @throws SubnetError `TIMELOCK_INVALID_CIPHERTEXT` when a part has the wrong length or U is not a point
 * @example serializeCiphertext(parseCiphertext(commit)) // equal to commit
 */
export function serializeCiphertext(ciphertext: TimelockCiphertext): Uint8Array {
  if (typeof ciphertext !== 'object' || (ciphertext as unknown) === null) {
    throw timelockError('TIMELOCK_INVALID_CIPHERTEXT', 'expected a ciphertext object', { path: 'ciphertext', value: ciphertext });
  }
  const u = toBytes(ciphertext.u, 'ciphertext.u', 'TIMELOCK_INVALID_CIPHERTEXT', 96);
  decodeG2(u, 'TIMELOCK_INVALID_CIPHERTEXT', 'ciphertext.u');
  const v = toBytes(ciphertext.v, 'ciphertext.v', 'TIMELOCK_INVALID_CIPHERTEXT', 32);
  const w = toBytes(ciphertext.w, 'ciphertext.w', 'TIMELOCK_INVALID_CIPHERTEXT', 32);
  const aes = toBytes(ciphertext.aesCiphertext, 'ciphertext.aesCiphertext', 'TIMELOCK_INVALID_CIPHERTEXT');
  if (aes.length < 16) {
    throw timelockError('TIMELOCK_INVALID_CIPHERTEXT', 'the AES-GCM part must hold at least the 16-byte tag', {
      path: 'ciphertext.aesCiphertext',
      value: aes.length,
    });
  }
  const nonce = toBytes(ciphertext.nonce, 'ciphertext.nonce', 'TIMELOCK_INVALID_CIPHERTEXT', 12);
  const suite = toBytes(ciphertext.cipherSuite, 'ciphertext.cipherSuite', 'TIMELOCK_INVALID_CIPHERTEXT');
  return concatBytes(u, vec(v), vec(w), vec(concatBytes(vec(aes), vec(nonce))), vec(suite));
}
