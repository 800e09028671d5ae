import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { hexToU8a } from '@polkadot/util';
import { decodeAddress, mnemonicToMiniSecret, mnemonicValidate, sr25519PairFromSeed } from '@polkadot/util-crypto';
import { getPublicKey } from '@scure/sr25519';
import { BITTENSOR_SS58_PREFIX, encodeSs58, ss58Spelling } from '@subnet/core';

import { WALLET_ERROR_CODES, walletError } from './errors.js';
import { btwalletPrivateKeyToPolkadot } from './private-key.js';

/** Which field of a keyfile gave the key, in btwallet's order of precedence. */
export type KeyfileSource = 'secretPhrase' | 'secretSeed' | 'privateKey' | 'ss58Address';

/** A parsed keyfile: the address always, the keyring pair only when the file holds a secret. */
export interface ParsedKeyfile {
  readonly source: KeyfileSource;
  /** SS58 address, prefix 42. */
  readonly address: string;
  /** 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The sr25519 pair (secret inside, never enumerable); `undefined` for a public-only file. */
  readonly pair: KeyringPair | undefined;
}

/** A code point in the surrogate range: only a lone `\uD800`..`\uDFFF` escape gives one after JSON.parse. */
const LONE_SURROGATE = /\p{Cs}/u;

function invalid(summary: string, path = 'keyfile', cause?: unknown): never {
  throw walletError(WALLET_ERROR_CODES.invalidKeyfile, summary, { path }, cause);
}

function hexField(value: string, field: string): Uint8Array {
  const bare = value.replace(/^(?:0x)+/, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(bare)) invalid(`${field} is not hex`, `keyfile.${field}`);
  return hexToU8a(`0x${bare}`);
}

/**
 * The words of a mnemonic as btwallet reads them: sp-core's `from_phrase` parses with the bip39 crate, which
 * splits on any run of Unicode whitespace (`str::split_whitespace`), so leading, trailing and repeated spaces,
 * tabs and newlines are all accepted; `@polkadot/util-crypto` splits on single spaces only. Words are joined
 * with one space for it; their case is kept (both word lists are lower case and compared exactly).
 */
function mnemonicWords(phrase: string): string {
  return phrase
    .split(/\p{White_Space}+/u)
    .filter((word) => word !== '')
    .join(' ');
}

/** {@link btwalletPrivateKeyToPolkadot}, its error naming the field the 64 bytes came from. */
function canonicalSecret(bytes: Uint8Array, field: 'secretSeed' | 'privateKey'): Uint8Array {
  try {
    return btwalletPrivateKeyToPolkadot(bytes);
  } catch (cause) {
    invalid(`${field} is 64 bytes whose scalar is not canonical (s >= group order), as btwallet would refuse too`, `keyfile.${field}`, cause);
  }
}

function sameKey(ss58: string, publicKey: Uint8Array): boolean {
  try {
    const claimed = decodeAddress(ss58);
    return claimed.length === publicKey.length && claimed.every((b, i) => b === publicKey[i]);
  } catch {
    return false;
  }
}

/**
 * The public key of an address-only keyfile (a `*pub.txt`). Only the one spelling btwallet writes is taken: SS58
 * with prefix 42 in its one-byte form, exactly as `to_ss58check` writes it (`btwallet:src/keyfile.rs:57-59`).
 * btwallet also loads other registered prefixes (sp-core `from_ss58check`), but then keeps the foreign text as the
 * wallet's address (`btwallet:src/keypair.rs:96-105, 361-369`), which matches no hotkey of the metagraph; no tool
 * writes one, so it is refused with the prefix found and the address to write instead.
 */
function publicOnlyKey(ss58: string): Uint8Array {
  const spelling = ss58Spelling(ss58);
  if (spelling.kind === 'not_ss58') {
    invalid(
      `ss58Address ${JSON.stringify(ss58.length > 80 ? `${ss58.slice(0, 80)}…` : ss58)} is not an SS58 address of a 32-byte key (${spelling.why})`,
      'keyfile.ss58Address',
      spelling.error,
    );
  }
  if (spelling.kind === 'wrong_prefix') {
    throw walletError(
      WALLET_ERROR_CODES.invalidKeyfile,
      `ss58Address ${ss58} is an SS58 address with ${spelling.found}; btwallet writes prefix ${BITTENSOR_SS58_PREFIX}, the spelling the metagraph uses: write ${spelling.canonical}, the same key`,
      { path: 'keyfile.ss58Address', value: ss58 },
    );
  }
  return spelling.publicKey;
}

function pairOf(publicKey: Uint8Array, secretKey: Uint8Array): KeyringPair {
  return new Keyring({ type: 'sr25519', ss58Format: 42 }).createFromPair({ publicKey, secretKey }, {}, 'sr25519');
}

function fromSecret(source: KeyfileSource, secretKey: Uint8Array): ParsedKeyfile {
  const publicKey = getPublicKey(secretKey);
  return { source, address: encodeSs58(publicKey), publicKey, pair: pairOf(publicKey, secretKey) };
}

/**
 * Reads the JSON of a plain (or decrypted) keyfile exactly as btwallet 4 does (`btwallet:src/keyfile.rs:68-105`):
 * UTF-8 JSON object of string-or-null values; `secretPhrase` (BIP39, empty password, words split on any
 * whitespace), else `secretSeed` (32-byte mini-secret, or a 64-byte canonical secret), else `privateKey` (64-byte
 * canonical secret, converted with {@link btwalletPrivateKeyToPolkadot}, or a 32-byte mini-secret: both read with
 * sp-core's `from_seed_slice`), else `ss58Address` (public only: SS58 with prefix 42, the one spelling btwallet
 * writes). `publicKey`/`accountId` are never read; leading `0x` are stripped. When a non-empty `ss58Address` is
 * present next to a secret it must name the key the secret derives; an empty one is ignored, as btwallet ignores it.
 *
 * @param bytes - the keyfile JSON bytes
 * @returns the parsed key
 * @throws SubnetError `WALLET_INVALID_KEYFILE`, `WALLET_KEY_MISMATCH`
 * @example parseKeyfileJson(new TextEncoder().encode('{"ss58Address":"5Grw..."}')).address
 */
export function parseKeyfileJson(bytes: Uint8Array): ParsedKeyfile {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch (cause) {
    invalid('the keyfile is not UTF-8 JSON (is it encrypted with an unknown method?)', 'keyfile', cause);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) invalid('the keyfile is not a JSON object');
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(data)) {
    // serde_json refuses a `\uD800`-style escape that is not half of a pair, in a key or a value, and so the file.
    if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value)))
      invalid('a keyfile string holds a lone UTF-16 surrogate escape (btwallet refuses the file)', 'keyfile');
    if (value === null) continue;
    if (typeof value !== 'string') invalid(`every keyfile value is a string or null (btwallet refuses the file)`, `keyfile.${key}`);
    fields.set(key, value);
  }
  const phrase = fields.get('secretPhrase');
  const seed = fields.get('secretSeed');
  const privateKey = fields.get('privateKey');
  const ss58 = fields.get('ss58Address');
  let parsed: ParsedKeyfile;
  if (phrase !== undefined) {
    const words = mnemonicWords(phrase);
    if (!mnemonicValidate(words))
      invalid(
        `secretPhrase is not a valid BIP39 mnemonic (${words === '' ? 0 : words.split(' ').length} words; its content is not shown)`,
        'keyfile.secretPhrase',
      );
    parsed = fromSecret('secretPhrase', sr25519PairFromSeed(mnemonicToMiniSecret(words)).secretKey);
  } else if (seed !== undefined) {
    const bytes32 = hexField(seed, 'secretSeed');
    if (bytes32.length === 32) parsed = fromSecret('secretSeed', sr25519PairFromSeed(bytes32).secretKey);
    else if (bytes32.length === 64) parsed = fromSecret('secretSeed', canonicalSecret(bytes32, 'secretSeed'));
    else invalid(`secretSeed is 32 bytes (or a 64-byte secret key), got ${bytes32.length}`, 'keyfile.secretSeed');
  } else if (privateKey !== undefined) {
    // btwallet reads privateKey with the same from_seed_slice as secretSeed: 32 bytes are a mini-secret.
    const bytes = hexField(privateKey, 'privateKey');
    if (bytes.length === 32) parsed = fromSecret('privateKey', sr25519PairFromSeed(bytes).secretKey);
    else if (bytes.length === 64) parsed = fromSecret('privateKey', canonicalSecret(bytes, 'privateKey'));
    else invalid(`privateKey is 64 bytes (or a 32-byte mini-secret), got ${bytes.length}`, 'keyfile.privateKey');
  } else if (ss58 !== undefined) {
    const publicKey = publicOnlyKey(ss58);
    return Object.freeze({ source: 'ss58Address', address: encodeSs58(publicKey), publicKey, pair: undefined });
  } else {
    invalid('the keyfile has no secretPhrase, secretSeed, privateKey or ss58Address');
  }
  // btwallet never reads ss58Address next to a secret (keyfile.rs:87-100). An empty one claims no address, so it
  // is ignored as btwallet ignores it; any other value must name the key the secret derives (README, decisions).
  if (ss58 !== undefined && ss58 !== '' && !sameKey(ss58, parsed.publicKey)) {
    throw walletError(WALLET_ERROR_CODES.keyMismatch, `the keyfile secret (${parsed.source}) derives ${parsed.address}, but its ss58Address is ${ss58}`, {
      path: 'keyfile.ss58Address',
      value: ss58,
    });
  }
  return Object.freeze(parsed);
}
