import { hexToU8a, u8aToHex } from '@polkadot/util';
import { getPublicKey } from '@scure/sr25519';
import { describe, expect, it } from 'vitest';

import { btwalletPrivateKeyToPolkadot } from '../private-key.js';
import { walletIndex } from './helpers.js';

const index = walletIndex();

describe('privateKey byte form (WALLETS.md 4.2): canonical scalar s -> LE(8s)', () => {
  it.each(index.reference_vectors.map((v, i) => [i, v] as const))('anchor %i converts to the @polkadot secret and its public key', (_i, v) => {
    const converted = btwalletPrivateKeyToPolkadot(hexToU8a(v.privateKey_btwallet));
    expect(u8aToHex(converted)).toBe(v.secretKey_polkadot);
    expect(u8aToHex(getPublicKey(converted))).toBe(v.publicKey);
  });

  it('every vector file with a privateKey converts to its listed @polkadot secret', () => {
    const withKey = index.files.filter((f) => f.expected.privateKey_btwallet !== undefined);
    expect(withKey.length).toBeGreaterThan(0);
    for (const f of withKey) expect(u8aToHex(btwalletPrivateKeyToPolkadot(hexToU8a(f.expected.privateKey_btwallet)))).toBe(f.expected.secretKey_polkadot);
  });

  it('refuses a non-canonical scalar (an @polkadot-form secret put in privateKey), as btwallet does', () => {
    const polkadotForm = hexToU8a(index.reference_vectors[1]!.secretKey_polkadot);
    expect(() => btwalletPrivateKeyToPolkadot(polkadotForm)).toThrow(expect.objectContaining({ code: 'WALLET_INVALID_KEYFILE' }));
  });
});
