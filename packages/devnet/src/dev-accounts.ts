import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';

/** One dev neuron's keys (sr25519 unless `keyType: 'ed25519'`). The URIs are public dev derivations of the well-known dev phrase, never secrets. */
export interface DevAccount {
  readonly uid: number;
  /** `//subnet//<seed>//hotkey//<uid>` */
  readonly hotkeyUri: string;
  readonly hotkey: KeyringPair;
  /** SS58 (prefix 42) address of the hotkey. */
  readonly hotkeyAddress: string;
  readonly hotkeyHex: string;
  /** `//subnet//<seed>//coldkey//<uid>` */
  readonly coldkeyUri: string;
  readonly coldkey: KeyringPair;
  readonly coldkeyAddress: string;
  readonly coldkeyHex: string;
}

/**
 * The URI of a dev hotkey: `//subnet//<seed>//hotkey//<uid>` (sr25519, derived from the dev phrase).
 *
 * @param seed - the devnet seed
 * @param uid - the uid
 * @returns the URI for `keyring.addFromUri`
 * @example
 * devHotkeyUri('devnet', 0); // '//subnet//devnet//hotkey//0'
 */
export function devHotkeyUri(seed: string, uid: number): string {
  return `//subnet//${seed}//hotkey//${uid}`;
}

/**
 * Derives the dev accounts of a devnet: one hotkey and coldkey per uid.
 *
 * @param seed - the devnet seed
 * @param count - number of neurons
 * @param ss58Prefix - address prefix (42)
 * @param keyType - `sr25519` (default) or `ed25519`
 * @returns the accounts, by uid
 * @example
 * const [alice] = deriveDevAccounts('devnet', 1);
 */
export function deriveDevAccounts(seed: string, count: number, ss58Prefix = 42, keyType: 'sr25519' | 'ed25519' = 'sr25519'): readonly DevAccount[] {
  const keyring = new Keyring({ type: keyType, ss58Format: ss58Prefix });
  const out: DevAccount[] = [];
  for (let uid = 0; uid < count; uid += 1) {
    const hotkeyUri = devHotkeyUri(seed, uid);
    const coldkeyUri = `//subnet//${seed}//coldkey//${uid}`;
    const hotkey = keyring.addFromUri(hotkeyUri);
    const coldkey = keyring.addFromUri(coldkeyUri);
    out.push(
      Object.freeze({
        uid,
        hotkeyUri,
        hotkey,
        hotkeyAddress: hotkey.address,
        hotkeyHex: u8aToHex(hotkey.publicKey),
        coldkeyUri,
        coldkey,
        coldkeyAddress: coldkey.address,
        coldkeyHex: u8aToHex(coldkey.publicKey),
      }),
    );
  }
  return Object.freeze(out);
}
