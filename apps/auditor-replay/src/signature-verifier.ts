import { sr25519Verifier } from '@subnet/bundle';
import type { SignatureVerifier } from '@subnet/bundle';

let ready: Promise<SignatureVerifier> | undefined;

/**
 * The sr25519 signature check for audit bundles, once the WebAssembly crypto is ready: `@subnet/bundle`'s
 * `sr25519Verifier`, made once per process. It loads `@polkadot/util-crypto` only, not `@polkadot/api`, so
 * each `verify --jobs N` worker process starts in a fraction of the time.
 *
 * @returns a function `(message, signature, address) => boolean`
 * @example const verify = await signatureVerifier(); verify(digestBytes, '0x…', hotkey)
 */
export function signatureVerifier(): Promise<SignatureVerifier> {
  ready ??= sr25519Verifier();
  return ready;
}
