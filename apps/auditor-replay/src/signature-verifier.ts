import { Keyring } from '@polkadot/api';
import * as bundlePackage from '@subnet/bundle';
import type { SignatureVerifier } from '@subnet/bundle';
import { loadSigner } from '@subnet/chain';

let ready: Promise<SignatureVerifier> | undefined;

/**
 * The sr25519 signature check for audit bundles, once the WebAssembly crypto is ready.
 *
 * Adapter (see /work/notes/auditor-needs.md): uses `@subnet/bundle`'s `sr25519Verifier` when that package
 * exports one; until then it readies the crypto through `@subnet/chain` (loading a throwaway dev key) and
 * verifies with a public-only `@polkadot/api` Keyring pair (`signatureVerify` underneath).
 *
 * @returns a function `(message, signature, address) => boolean`
 * @example const verify = await signatureVerifier(); verify(digestBytes, '0x…', hotkey)
 */
export function signatureVerifier(): Promise<SignatureVerifier> {
  ready ??= load();
  return ready;
}

async function load(): Promise<SignatureVerifier> {
  const provided = (bundlePackage as Record<string, unknown>).sr25519Verifier;
  if (typeof provided === 'function') return await (provided as () => Promise<SignatureVerifier>)();
  await loadSigner({ kind: 'uri', uri: '//AuditorReplay' });
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return (message, signature, address) => {
    try {
      if (!/^0x[0-9a-fA-F]{128}$/.test(signature)) return false;
      const pair = keyring.addFromAddress(address);
      return pair.verify(message, Uint8Array.from(Buffer.from(signature.slice(2), 'hex')), pair.publicKey);
    } catch {
      return false;
    }
  };
}
