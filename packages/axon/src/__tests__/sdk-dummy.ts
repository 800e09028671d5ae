import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';

import { defineSynapse } from '../synapse-definition.js';

/** The SDK's own test synapse: `class Dummy(bt.Synapse): dummy_input: int; dummy_output: Optional[int] = None`. */
export const Dummy = defineSynapse({
  name: 'Dummy',
  fields: [
    ['dummy_input', { type: 'int' }],
    ['dummy_output', { type: { optional: 'int' }, default: null }],
  ],
  requiredHashFields: [],
});

/**
 * sr25519 development keys (SS58 prefix 42) for a test's dendrite and axon, one per URI, in order.
 *
 * @param uris - e.g. `'//Alice', '//Bob'`
 * @returns the key pairs
 */
export async function devKeys(...uris: string[]): Promise<KeyringPair[]> {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return uris.map((uri) => keyring.addFromUri(uri));
}
