import { digest } from '@subnet/core';
import { u8aToHex } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';

/** Headers of a signed request (`POST /v1/sssa`, `POST /v1/peer-scores`). */
export const SIGNATURE_HEADERS = Object.freeze({
  hotkey: 'x-subnet-hotkey',
  timestamp: 'x-subnet-timestamp',
  nonce: 'x-subnet-nonce',
  signature: 'x-subnet-signature',
});

/**
 * The message a signed request signs, as UTF-8: `METHOD\nPATH\nBODY_DIGEST\nTIMESTAMP\nNONCE`, where the body
 * digest is the sha256 hex of the body's canonical JSON (SPEC 0), the timestamp is Unix milliseconds and the
 * nonce 16-128 characters of `[A-Za-z0-9_-]`. Method and path bind the signature to one endpoint.
 *
 * @param input - method, path, parsed JSON body, timestamp and nonce
 * @returns the message text
 * @example signedMessage({ method: 'POST', path: '/v1/sssa', body, timestamp: 1_700_000_000_000, nonce })
 */
export function signedMessage(input: { readonly method: string; readonly path: string; readonly body: unknown; readonly timestamp: number; readonly nonce: string }): string {
  return `${input.method.toUpperCase()}\n${input.path}\n${digest(input.body)}\n${input.timestamp}\n${input.nonce}`;
}

/** Something that signs with sr25519 (a `@polkadot/keyring` pair). */
export interface RequestSigner {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The headers that sign a request as `signer` (for miners' and peers' clients, and tests).
 *
 * @param signer - the hotkey pair
 * @param input - method, path, body, timestamp (Unix ms) and nonce
 * @returns the four `x-subnet-*` headers
 * @example await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...signRequest(pair, { method: 'POST', path: '/v1/sssa', body, timestamp: Date.now(), nonce }) } })
 */
export function signRequest(
  signer: RequestSigner,
  input: { readonly method: string; readonly path: string; readonly body: unknown; readonly timestamp: number; readonly nonce: string },
): Record<string, string> {
  return {
    [SIGNATURE_HEADERS.hotkey]: signer.address,
    [SIGNATURE_HEADERS.timestamp]: String(input.timestamp),
    [SIGNATURE_HEADERS.nonce]: input.nonce,
    [SIGNATURE_HEADERS.signature]: u8aToHex(signer.sign(new TextEncoder().encode(signedMessage(input)))),
  };
}

/** Why a signed request was refused. */
export type SignatureFailure = 'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature';

/**
 * Checks a signed request's headers: present and well formed, timestamp within `maxSkewMs` of `nowMs`,
 * signature valid for the claimed hotkey. (Registration and the nonce are checked by the caller.)
 *
 * @param input - headers, method, path, parsed body, now and the allowed skew
 * @returns `{ ok: true, hotkey, nonce, timestamp }` or `{ ok: false, reason }`
 * @example verifySignedRequest({ headers: req.headers, method: 'POST', path: '/v1/sssa', body, nowMs: Date.now(), maxSkewMs: 60_000 })
 */
export function verifySignedRequest(input: {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly nowMs: number;
  readonly maxSkewMs: number;
}): { readonly ok: true; readonly hotkey: string; readonly nonce: string; readonly timestamp: number } | { readonly ok: false; readonly reason: SignatureFailure } {
  const get = (name: string): string | undefined => {
    const v = input.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const hotkey = get(SIGNATURE_HEADERS.hotkey);
  const ts = get(SIGNATURE_HEADERS.timestamp);
  const nonce = get(SIGNATURE_HEADERS.nonce);
  const signature = get(SIGNATURE_HEADERS.signature);
  if (hotkey === undefined || ts === undefined || nonce === undefined || signature === undefined) return { ok: false, reason: 'missing_signature' };
  if (!/^[0-9]{1,16}$/.test(ts) || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce) || !/^0x[0-9a-fA-F]{128}$/.test(signature)) return { ok: false, reason: 'malformed_signature' };
  const timestamp = Number(ts);
  if (Math.abs(input.nowMs - timestamp) > input.maxSkewMs) return { ok: false, reason: 'stale_timestamp' };
  let valid = false;
  try {
    const message = new TextEncoder().encode(signedMessage({ method: input.method, path: input.path, body: input.body, timestamp, nonce }));
    valid = signatureVerify(message, signature, hotkey).isValid;
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: 'bad_signature' };
  return { ok: true, hotkey, nonce, timestamp };
}
