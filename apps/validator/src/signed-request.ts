import { createHash } from 'node:crypto';

import { u8aToHex } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';
import { BITTENSOR_SS58_PREFIX } from '@subnet/core';

import { hotkeySpellingProblem, quotedValue as quoted } from './hotkey-spelling.js';

/** Headers of a signed request (`POST /v1/sssa`, `POST /v1/peer-scores`). */
export const SIGNATURE_HEADERS = Object.freeze({
  hotkey: 'x-subnet-hotkey',
  timestamp: 'x-subnet-timestamp',
  nonce: 'x-subnet-nonce',
  signature: 'x-subnet-signature',
});

/**
 * The optional fifth header of a signed request: the SS58 hotkey (prefix 42) of the validator it is for. When
 * present it is signed too (a sixth line of the message) and the receiver takes the request only if it names
 * its own hotkey, so a validator that received it cannot replay it to another one (docs/spec.md G.6).
 */
export const RECEIVER_HEADER = 'x-subnet-receiver';

/** The exact body of a request: the bytes on the wire, or a string sent as its UTF-8 bytes. */
export type RawBody = string | Uint8Array;

function bodyBytes(body: RawBody): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** What a signed request's message is made of: method, path, raw body, timestamp (Unix ms), nonce and, for a bound request, the receiver's hotkey. */
export interface SignedRequestParts {
  readonly method: string;
  readonly path: string;
  readonly body: RawBody;
  readonly timestamp: number;
  readonly nonce: string;
  readonly receiver?: string;
}

/**
 * The message a signed request signs, as UTF-8: `METHOD\nPATH\nBODY_SHA256\nTIMESTAMP\nNONCE`, and
 * `\nRECEIVER` after it when the request is bound to one validator (its `x-subnet-receiver` header), where
 * `BODY_SHA256` is the lowercase sha256 hex of the **exact body bytes sent** (no re-serialisation, so any
 * language can sign: `hashlib.sha256(body).hexdigest()`), the timestamp is Unix milliseconds in decimal and
 * the nonce 16-128 characters of `[A-Za-z0-9_-]`. Method and path bind the signature to one endpoint, the
 * receiver (when given) to one validator.
 *
 * @param input - method, path, raw body, timestamp, nonce and, for a bound request, the receiver's hotkey
 * @returns the message text
 * @example signedMessage({ method: 'POST', path: '/v1/sssa', body: text, timestamp: 1_700_000_000_000, nonce })
 */
export function signedMessage(input: SignedRequestParts): string {
  const bodyDigest = createHash('sha256').update(bodyBytes(input.body)).digest('hex');
  const message = `${input.method.toUpperCase()}\n${input.path}\n${bodyDigest}\n${input.timestamp}\n${input.nonce}`;
  return input.receiver === undefined ? message : `${message}\n${input.receiver}`;
}

/** Something that signs with sr25519 (a `@polkadot/keyring` pair). */
export interface RequestSigner {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The headers that sign a request as `signer` (for miners' and peers' clients, and tests). Sign the very
 * string or bytes you then send as the body. Give `receiver`, the hotkey of the validator the request is
 * for, so that no one who sees the request can replay it to another validator.
 *
 * @param signer - the hotkey pair
 * @param input - method, path, raw body, timestamp (Unix ms), nonce and (recommended) the receiver's hotkey
 * @returns the four `x-subnet-*` signature headers, and `x-subnet-receiver` when bound
 * @example
 * const text = JSON.stringify(body);
 * await fetch(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...signRequest(pair, { method: 'POST', path: '/v1/sssa', body: text, timestamp: Date.now(), nonce }) } });
 */
export function signRequest(signer: RequestSigner, input: SignedRequestParts): Record<string, string> {
  return {
    [SIGNATURE_HEADERS.hotkey]: signer.address,
    [SIGNATURE_HEADERS.timestamp]: String(input.timestamp),
    [SIGNATURE_HEADERS.nonce]: input.nonce,
    [SIGNATURE_HEADERS.signature]: u8aToHex(signer.sign(new TextEncoder().encode(signedMessage(input)))),
    ...(input.receiver === undefined ? {} : { [RECEIVER_HEADER]: input.receiver }),
  };
}

/**
 * Why a signed request was refused. `wrong_ss58_prefix`: `x-subnet-hotkey` is a valid SS58 address, but not in
 * Bittensor's one spelling of a key (prefix 42, one-byte form), the spelling the metagraph, the nonces and the
 * rate limits use (docs/spec.md G.6). `wrong_receiver`: the request is bound to another validator
 * (`x-subnet-receiver` is not this validator's hotkey).
 */
export type SignatureFailure = 'missing_signature' | 'malformed_signature' | 'wrong_ss58_prefix' | 'wrong_receiver' | 'stale_timestamp' | 'bad_signature';

/** A refused signed request: why, the header at fault and a sentence naming it and its value. */
export interface SignatureRefusal {
  readonly ok: false;
  readonly reason: SignatureFailure;
  /** The header at fault (the first missing one when several are). */
  readonly header: string;
  readonly message: string;
}

/**
 * Why `x-subnet-hotkey` is not the one spelling of a key this API takes, or undefined when it is: an SS58 address
 * of a 32-byte key with prefix 42 in its one-byte form, exactly as `encodeSs58` writes it. The signed message does
 * not hold the hotkey, so every other spelling of the same key (prefix 0 or 2, the two-byte form of 42, hex)
 * would verify too; refusing them before the signature is checked keeps one nonce space and one rate bucket per
 * key, and tells the sender what to send instead of a misleading "not registered".
 */
function hotkeySpelling(hotkey: string): { readonly reason: SignatureFailure; readonly message: string } | undefined {
  const problem = hotkeySpellingProblem(hotkey);
  if (problem === undefined) return undefined;
  if (problem.kind === 'not_ss58')
    return {
      reason: 'malformed_signature',
      message: `signed request refused: ${SIGNATURE_HEADERS.hotkey} ${quoted(hotkey)} is not an SS58 address of a 32-byte key (${problem.why}); send the hotkey's SS58 address with prefix ${BITTENSOR_SS58_PREFIX}`,
    };
  return {
    reason: 'wrong_ss58_prefix',
    message: `signed request refused: ${SIGNATURE_HEADERS.hotkey} ${quoted(hotkey)} is an SS58 address with ${problem.found}; this API takes prefix ${BITTENSOR_SS58_PREFIX} (Bittensor's, as the metagraph spells hotkeys): send ${problem.canonical}, the same key`,
  };
}

/**
 * Checks a signed request's headers: present and well formed, the hotkey an SS58 address with prefix 42 (its one
 * spelling: another prefix of the same key is `wrong_ss58_prefix`, anything else not SS58 `malformed_signature`),
 * `x-subnet-receiver`, when present, exactly `receiver` (this validator's hotkey; else `wrong_receiver`), and
 * present at all when `requireReceiver` (else `missing_signature`), timestamp within `maxSkewMs` of `nowMs`,
 * signature valid for the claimed hotkey over the raw body bytes as received (and the receiver, when bound).
 * (Registration and the nonce are checked by the caller.) A refusal names the header at fault and its value,
 * so a sender knows what to fix.
 *
 * @param input - headers, method, path, raw body bytes, now, the allowed skew, this validator's hotkey and
 *   whether requests must be bound to it
 * @returns `{ ok: true, hotkey, nonce, timestamp, bound }` or `{ ok: false, reason, header, message }`
 * @example verifySignedRequest({ headers: req.headers, method: 'POST', path: '/v1/sssa', body: rawBytes, nowMs: Date.now(), maxSkewMs: 60_000, receiver: myHotkey })
 */
export function verifySignedRequest(input: {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly path: string;
  readonly body: RawBody;
  readonly nowMs: number;
  readonly maxSkewMs: number;
  /** This validator's hotkey: a bound request must name it in `x-subnet-receiver`. */
  readonly receiver: string;
  /** Refuse requests without `x-subnet-receiver` (default false: they are taken, unbound). */
  readonly requireReceiver?: boolean;
}): { readonly ok: true; readonly hotkey: string; readonly nonce: string; readonly timestamp: number; readonly bound: boolean } | SignatureRefusal {
  const get = (name: string): string | undefined => {
    const v = input.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const refuse = (reason: SignatureFailure, header: string, message: string): SignatureRefusal => ({ ok: false, reason, header, message });
  const hotkey = get(SIGNATURE_HEADERS.hotkey);
  const ts = get(SIGNATURE_HEADERS.timestamp);
  const nonce = get(SIGNATURE_HEADERS.nonce);
  const signature = get(SIGNATURE_HEADERS.signature);
  if (hotkey === undefined || ts === undefined || nonce === undefined || signature === undefined) {
    const missing = Object.values(SIGNATURE_HEADERS).filter((name) => get(name) === undefined);
    return refuse('missing_signature', missing[0] ?? SIGNATURE_HEADERS.signature, `signed request refused: missing header ${missing.join(', ')}`);
  }
  // One spelling of a time: the signed message holds the number's decimal text, so a header with a leading zero was read
  // as another text than the one a client signing its header verbatim signed (docs/spec.md G.39).
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(ts))
    return refuse(
      'malformed_signature',
      SIGNATURE_HEADERS.timestamp,
      `signed request refused: ${SIGNATURE_HEADERS.timestamp} ${quoted(ts)} is not Unix milliseconds (1-16 decimal digits, no leading zero)`,
    );
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(nonce))
    return refuse(
      'malformed_signature',
      SIGNATURE_HEADERS.nonce,
      `signed request refused: ${SIGNATURE_HEADERS.nonce} ${quoted(nonce)} is not 16-128 characters of [A-Za-z0-9_-]`,
    );
  if (!/^0x[0-9a-fA-F]{128}$/.test(signature))
    return refuse(
      'malformed_signature',
      SIGNATURE_HEADERS.signature,
      `signed request refused: ${SIGNATURE_HEADERS.signature} ${quoted(signature)} is not 0x and 128 hex digits`,
    );
  const spelling = hotkeySpelling(hotkey);
  if (spelling !== undefined) return refuse(spelling.reason, SIGNATURE_HEADERS.hotkey, spelling.message);
  const receiver = input.headers[RECEIVER_HEADER];
  if (receiver === undefined) {
    if (input.requireReceiver === true)
      return refuse(
        'missing_signature',
        RECEIVER_HEADER,
        `signed request refused: missing header ${RECEIVER_HEADER}; this validator takes only requests bound to it: send ${RECEIVER_HEADER}: ${input.receiver} and sign it as the last line of the message`,
      );
  } else if (receiver !== input.receiver)
    return refuse(
      'wrong_receiver',
      RECEIVER_HEADER,
      `signed request refused: ${RECEIVER_HEADER} ${typeof receiver === 'string' ? quoted(receiver) : 'is given more than once and'} is not this validator; this validator's hotkey is ${input.receiver}`,
    );
  const timestamp = Number(ts);
  if (Math.abs(input.nowMs - timestamp) > input.maxSkewMs)
    return refuse(
      'stale_timestamp',
      SIGNATURE_HEADERS.timestamp,
      `signed request refused: ${SIGNATURE_HEADERS.timestamp} ${ts} is ${Math.round((timestamp - input.nowMs) / 1000)} s off; the server time is ${input.nowMs} and at most ${input.maxSkewMs / 1000} s either way is allowed`,
    );
  let valid = false;
  try {
    const bound = receiver === undefined ? {} : { receiver: input.receiver };
    const message = new TextEncoder().encode(signedMessage({ method: input.method, path: input.path, body: input.body, timestamp, nonce, ...bound }));
    valid = signatureVerify(message, signature, hotkey).isValid;
  } catch {
    valid = false;
  }
  if (!valid)
    return refuse(
      'bad_signature',
      SIGNATURE_HEADERS.signature,
      `signed request refused: ${SIGNATURE_HEADERS.signature} does not verify for ${SIGNATURE_HEADERS.hotkey} ${quoted(hotkey)} over ${input.method.toUpperCase()} ${input.path}, the sha256 of the body bytes sent, the timestamp and the nonce${receiver === undefined ? ` (no ${RECEIVER_HEADER}: an unbound message of five lines)` : `, and the receiver ${input.receiver}`}`,
    );
  return { ok: true, hotkey, nonce, timestamp, bound: receiver !== undefined };
}
