import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readMetagraph } from '../metagraph.js';
import { preflight } from '../preflight.js';
import { submitExtrinsic } from '../submit-extrinsic.js';
import type { ChainSigner } from '../keys.js';
import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

// uid 0 owner; 1 validator; 2 staked without permit; 3 unstaked; 4 unstaked with a permit. Subnet of 6.
let h: Harness;
let signers: ChainSigner[];
beforeAll(async () => {
  h = await startHarness({
    neurons: 6,
    validators: 2,
    weightsSetRateLimit: 2n,
    stakes: [0n, 10_000_000_000_000n, 5_000_000_000_000n, 0n, 0n, 0n],
    permits: [true, true, false, false, true, false],
  });
  signers = await Promise.all([0, 1, 2, 3, 4].map((u) => h.signerFor(u)));
  await h.devnet.produceBlock();
});
afterAll(async () => {
  await h.close();
});

describe('preflight agrees with the devnet for the same snapshot', () => {
  it(
    'property: preflight never passes a vector the devnet rejects; when the devnet fails it in the block, preflight named the same error first',
    { timeout: 60_000 },
    async () => {
      const seen = { passed: 0, rejected: 0, module: 0 };
      const validish = fc
        .uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 })
        .chain((uids) =>
          fc
            .array(fc.integer({ min: 0, max: 65535 }), { minLength: uids.length, maxLength: uids.length })
            .map((vals) => uids.map((u, i): [number, number] => [u, vals[i] ?? 0])),
        );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 1, 1, 2, 3, 4),
          fc.oneof(validish, fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 65535 })), { minLength: 0, maxLength: 7 })),
          fc.constantFrom(0n, 5n),
          fc.bigInt({ min: 0n, max: 9n }),
          fc.integer({ min: 1, max: 4 }),
          async (who, pairs, requiredVersion, versionKey, minAllowed) => {
            h.devnet.setHyperparameter('weightsVersionKey', requiredVersion);
            h.devnet.setHyperparameter('minAllowedWeights', minAllowed);
            await h.devnet.produceBlock();
            const signer = signers[who]!;
            const snapshot = await readMetagraph(h.client.connection, { netuid: 1 });
            const uids = pairs.map((p) => p[0]);
            const values = pairs.map((p) => p[1]);
            const verdict = preflight({ snapshot, hotkey: signer.address, uids, values, versionKey, kind: 'set' });
            const outcome = await h
              .includeNext(
                submitExtrinsic(h.client.connection, signer, (api) => api.tx['subtensorModule']!['setMechanismWeights']!(1, 0, uids, values, versionKey), {
                  wait: 'inBlock',
                  eraPeriod: 64,
                  timeoutMs: 5_000,
                  pollMs: 10,
                  label: 'set_mechanism_weights',
                }),
              )
              .then(
                (inclusion) => ({ ok: inclusion.events.some((e) => e.method === 'WeightsSet'), code: null as string | null, source: null as unknown }),
                (error: unknown) => ({ ok: false, code: (error as { code: string }).code, source: (error as { context: { source: unknown } }).context.source }),
              );
            if (verdict.ok) seen.passed += 1;
            else seen.rejected += 1;
            if (outcome.source === 'module') seen.module += 1;
            if (verdict.ok) expect(outcome).toEqual({ ok: true, code: null, source: null });
            else expect(outcome.ok).toBe(false);
            if (outcome.source === 'module') expect(verdict.errors[0]?.code).toBe(outcome.code);
          },
        ),
        { numRuns: 25, seed: 20_260_701 },
      );
      // not vacuous: both sides of the property were exercised
      expect(seen.passed).toBeGreaterThan(0);
      expect(seen.rejected).toBeGreaterThan(0);
    },
  );
});
