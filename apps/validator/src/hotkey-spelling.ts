import type { Ss58Spelling } from '@subnet/core';
import { ss58Spelling } from '@subnet/core';

/**
 * Why a hotkey string is not the one spelling of a key this API takes (SS58 of a 32-byte key with prefix 42 in
 * its one-byte form, as the metagraph spells hotkeys): `@subnet/core`'s {@link ss58Spelling} other than
 * `canonical` (docs/spec.md G.6 "A signing hotkey has one spelling", "A hotkey in an ingest body has the same one
 * spelling").
 */
export type HotkeySpellingProblem = Exclude<Ss58Spelling, { readonly kind: 'canonical' }>;

/**
 * Checks that a hotkey is spelled the one way the validator takes: SS58, prefix 42, one-byte form. Used for the
 * signing header and for every hotkey field of an ingest body, so no other spelling of a key reaches the metagraph
 * lookup, the nonce store, the rate bucket, the records or the bundle.
 *
 * @param value - the hotkey text as sent
 * @returns undefined for the one spelling, else what is wrong
 * @example hotkeySpellingProblem(encodeSs58(key, 0)) // { kind: 'wrong_prefix', found: 'prefix 0', canonical: encodeSs58(key, 42), ... }
 */
export function hotkeySpellingProblem(value: string): HotkeySpellingProblem | undefined {
  const spelling = ss58Spelling(value);
  return spelling.kind === 'canonical' ? undefined : spelling;
}

/** A sender's value (a header, a hotkey) quoted for a message, cut to 80 characters; never a secret. */
export function quotedValue(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
