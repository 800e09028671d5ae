import { BITTENSOR_SS58_PREFIX, decodeSs58, encodeSs58, isSubnetError } from '@subnet/core';

/**
 * Why a hotkey string is not the one spelling of a key this API takes (SS58 of a 32-byte key with prefix 42 in
 * its one-byte form, exactly as `encodeSs58` writes it and as the metagraph spells hotkeys), or undefined when it
 * is. `not_ss58`: no SS58 address of a 32-byte key at all (`why` says what is wrong); `wrong_prefix`: a valid
 * address of a key in another spelling (prefix 0 or 2, the two-byte form of 42), with `found` naming the prefix
 * and `canonical` the same key's address to send instead (docs/spec.md G.6 "A signing hotkey has one spelling",
 * "A hotkey in an ingest body has the same one spelling").
 */
export type HotkeySpellingProblem =
  { readonly kind: 'not_ss58'; readonly why: string } | { readonly kind: 'wrong_prefix'; readonly found: string; readonly canonical: string };

/**
 * Checks that a hotkey is spelled the one way the validator takes: SS58, prefix 42, one-byte form. Used for the
 * signing header and for every hotkey field of an ingest body, so no other spelling of a key reaches the metagraph
 * lookup, the nonce store, the rate bucket, the records or the bundle.
 *
 * @param value - the hotkey text as sent
 * @returns undefined for the one spelling, else what is wrong
 * @example hotkeySpellingProblem(encodeSs58(key, 0)) // { kind: 'wrong_prefix', found: 'prefix 0', canonical: encodeSs58(key, 42) }
 */
export function hotkeySpellingProblem(value: string): HotkeySpellingProblem | undefined {
  let decoded;
  try {
    decoded = decodeSs58(value);
  } catch (error) {
    const why = isSubnetError(error) ? error.message.replace(/^not a valid SS58 address: /, '') : 'not decodable';
    return { kind: 'not_ss58', why };
  }
  const canonical = encodeSs58(decoded.publicKey, BITTENSOR_SS58_PREFIX);
  if (value === canonical) return undefined;
  const found = decoded.prefix === BITTENSOR_SS58_PREFIX ? `prefix ${decoded.prefix} in its two-byte form` : `prefix ${decoded.prefix}`;
  return { kind: 'wrong_prefix', found, canonical };
}

/** A sender's value (a header, a hotkey) quoted for a message, cut to 80 characters; never a secret. */
export function quotedValue(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
