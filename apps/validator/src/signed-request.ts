import { createHash } from 'node:crypto';

import { u8aToHex } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';

/** Headers of a signed request (`POST /v1/sssa`, `POST /v1/peer-scores`). */
export const SIGNATURE_HEADERS = Object.freeze({
  hotkey: 'x-subnet-hotkey',
  timestamp: 'x-subnet-timestamp',
  nonce: 'x-subnet-nonce',
  signature: 'x-subnet-signature',
});

/** The exact body of a request: the bytes on the wire, or a string sent as its UTF-8 bytes. */
export type RawBody = string | Uint8Array;

function bodyBytes(body: RawBody): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/**
 * The message a signed request signs, as UTF-8: `METHOD\nPATH\nBODY_SHA256\nTIMESTAMP\nNONCE`, where
 * `BODY_SHA256` is the lowercase sha256 hex of the **exact body bytes sent** (no re-serialisation, so any
 * language can sign: `hashlib.sha256(body).hexdigest()`), the timestamp is Unix milliseconds in decimal and
 * the nonce 16-128 characters of `[A-Za-z0-9_-]`. Method and path bind the signature to one endpoint.
 *
 * @param input - method, path, raw body, timestamp and nonce
 * @returns the message text
 * @example signedMessage({ method: 'POST', path: '/v1/sssa', body: text, timestamp: 1_700_000_000_000, nonce })
 */
export function signedMessage(input: {
  readonly method: string;
  readonly path: string;
  readonly body: RawBody;
  readonly timestamp: number;
  readonly nonce: string;
}): string {
  const bodyDigest = createHash('sha256').update(bodyBytes(input.body)).digest('hex');
  return `${input.method.toUpperCase()}\n${input.path}\n${bodyDigest}\n${input.timestamp}\n${input.nonce}`;
}

/** Something that signs with sr25519 (a `@polkadot/keyring` pair). */
export interface RequestSigner {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The headers that sign a request as `signer` (for miners' and peers' clients, and tests). Sign the very
 * string or bytes you then send as the body.
 *
 * @param signer - the hotkey pair
 * @param input - method, path, raw body, timestamp (Unix ms) and nonce
 * @returns the four `x-subnet-*` headers
 * @example
 * const text = JSON.stringify(body);
 * await fetch(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...signRequest(pair, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce }) } });
 */
export function signRequest(
  signer: RequestSigner,
  input: { readonly method: string; readonly path: string; readonly body: RawBody; readonly timestamp: number; readonly nonce: string },
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
 * signature valid for the claimed hotkey over the raw body bytes as received. (Registration and the nonce are
 * checked by the caller.)
 *
 * @param input - headers, method, path, raw body bytes, now and the allowed skew
 * @returns `{ ok: true, hotkey, nonce, timestamp }` or `{ ok: false, reason }`
 * @example verifySignedRequest({ headers: req.headers, method: 'POST', path: '/v1/sssa', body: rawBytes, nowMs: Date.now(), maxSkewMs: 60_000 })
 */
export function verifySignedRequest(input: {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly path: string;
  readonly body: RawBody;
  readonly nowMs: number;
  readonly maxSkewMs: number;
}):
  | { readonly ok: true; readonly hotkey: string; readonly nonce: string; readonly timestamp: number }
  | { readonly ok: false; readonly reason: SignatureFailure } {
  const get = (name: string): string | undefined => {
    const v = input.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const hotkey = get(SIGNATURE_HEADERS.hotkey);
  const ts = get(SIGNATURE_HEADERS.timestamp);
  const nonce = get(SIGNATURE_HEADERS.nonce);
  const signature = get(SIGNATURE_HEADERS.signature);
  if (hotkey === undefined || ts === undefined || nonce === undefined || signature === undefined) return { ok: false, reason: 'missing_signature' };
  if (!/^[0-9]{1,16}$/.test(ts) || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce) || !/^0x[0-9a-fA-F]{128}$/.test(signature))
    return { ok: false, reason: 'malformed_signature' };
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
