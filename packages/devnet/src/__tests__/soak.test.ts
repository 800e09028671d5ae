import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness } from './harness.js';

const SIGNERS = 8;
const PER_SIGNER = 125;
const ROUNDS = 5;
let h: Harness;

beforeAll(async () => {
  // ed25519 dev keys: @polkadot/util-crypto 14 signs and verifies sr25519 in pure JS (10-20 ms each on a
  // loaded 2-core machine); the devnet verifies both through the same MultiSignature path.
  h = await harness({ neurons: SIGNERS, validators: SIGNERS, weightsSetRateLimit: 0n, keyType: 'ed25519' });
});
afterAll(async () => {
  await h.close();
});

describe('soak', () => {
  it('1,000 extrinsics from 8 signers: none lost, none duplicated, nonces consecutive per signer', async () => {
    const submitted = new Map<string, { signer: number; nonce: number }>();
    const perRound = PER_SIGNER / ROUNDS;
    const included: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch: Promise<unknown>[] = [];
      for (let s = 0; s < SIGNERS; s += 1) {
        const pair = h.devnet.accounts[s]!.hotkey;
        for (let i = 0; i < perRound; i += 1) {
          const nonce = round * perRound + i;
          const tx = h.api.tx.subtensorModule!.setWeights!(1, [(s + 1) % SIGNERS, s], [nonce + 1, 1], 0);
          batch.push(
            Promise.resolve(
              tx.sign(pair, {
                nonce,
                era: h.api.createType('ExtrinsicEra', '0x00'),
                blockHash: h.api.genesisHash,
                genesisHash: h.api.genesisHash,
                runtimeVersion: h.api.runtimeVersion,
                signedExtensions: h.api.registry.signedExtensions,
              }),
            ).then(async (signed) => {
              submitted.set(signed.toHex(), { signer: s, nonce });
              return h.api.rpc.author.submitExtrinsic(signed);
            }),
          );
        }
      }
      await Promise.all(batch);
      const block = await h.devnet.produceBlock();
      included.push(...block!.extrinsics.slice(1));
    }
    expect(submitted.size).toBe(SIGNERS * PER_SIGNER);
    expect(included).toHaveLength(SIGNERS * PER_SIGNER);
    expect(new Set(included).size).toBe(included.length);
    for (const x of included) expect(submitted.has(x)).toBe(true);
    const lastNonce = new Map<number, number>();
    for (const x of included) {
      const { signer, nonce } = submitted.get(x)!;
      expect(nonce).toBe((lastNonce.get(signer) ?? -1) + 1);
      lastNonce.set(signer, nonce);
    }
    for (let s = 0; s < SIGNERS; s += 1) {
      const next = await h.api.rpc.system.accountNextIndex(h.devnet.accounts[s]!.hotkeyAddress);
      expect(next.toNumber()).toBe(PER_SIGNER);
    }
    expect(h.devnet.poolSize()).toBe(0);
  }, 30_000);
});
