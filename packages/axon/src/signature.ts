import { hexToU8a, stringToU8a, u8aConcat } from '@polkadot/util';
import { decodeAddress, sr25519Verify } from '@polkadot/util-crypto';

/**
 * The message a dendrite signs (`bittensor/core/dendrite.py:721`) and the axon rebuilds with its own hotkey
 * (`bittensor/core/axon.py:928`): `"{nonce}.{dendrite_hotkey}.{axon_hotkey}.{uuid}.{body_hash}"`.
 *
 * @param input - nonce, both hotkeys (SS58), the dendrite uuid and the body hash
 * @returns the message text (signed as its UTF-8 bytes, unwrapped)
 * @example signatureMessage({ nonce: 1n, dendriteHotkey, axonHotkey, uuid, bodyHash: EMPTY_BODY_HASH })
 */
export function signatureMessage(input: {
  readonly nonce: bigint;
  readonly dendriteHotkey: string;
  readonly axonHotkey: string;
  readonly uuid: string;
  readonly bodyHash: string;
}): string {
  return `${input.nonce}.${input.dendriteHotkey}.${input.axonHotkey}.${input.uuid}.${input.bodyHash}`;
}

/** Why a signature was refused, in the words of `bittensor_wallet.Keypair` (used after "Not Verified with error: "). */
export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Verifies a `bt_header_dendrite_signature` as `bittensor_wallet.Keypair.verify` does (btwallet
 * `src/keypair.rs:311-358`): `0x` + hex of 64 bytes, sr25519 (context `substrate`) over the raw UTF-8 message,
 * or else over `<Bytes>message</Bytes>`.
 *
 * @param message - the signed message
 * @param signature - the header value
 * @param ss58 - the claimed signer
 * @returns `{ ok: true }` or the reason
 * @example verifySynapseSignature(message, headers.bt_header_dendrite_signature, hotkey)
 */
export function verifySynapseSignature(message: string, signature: string, ss58: string): SignatureCheck {
  let publicKey: Uint8Array;
  try {
    publicKey = decodeAddress(ss58);
  } catch {
    return { ok: false, reason: 'Invalid SS58 address' };
  }
  if (!signature.startsWith('0x')) return { ok: false, reason: 'Invalid signature format. Expected hex string.' };
  if (!/^0x[0-9a-fA-F]{128}$/.test(signature)) return { ok: false, reason: 'Invalid signature' };
  const sig = hexToU8a(signature.toLowerCase());
  const raw = stringToU8a(message);
  if (sr25519Verify(raw, sig, publicKey)) return { ok: true };
  if (sr25519Verify(u8aConcat(stringToU8a('<Bytes>'), raw, stringToU8a('</Bytes>')), sig, publicKey)) return { ok: true };
  return { ok: false, reason: `Signature mismatch with ${message} and ${signature}` };
}
