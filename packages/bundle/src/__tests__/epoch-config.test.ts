import { parseInput } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { epochConfigSchema } from '../epoch-config.js';
import { BUNDLE_ERROR_CODES } from '../errors.js';
import { parseEpochConfig } from '../index.js';
import { expectCode } from './helpers.js';

describe('parseEpochConfig', () => {
  it('fills in SPEC C defaults and the composite cap of 0.15 (SPEC A, C.5)', () => {
    const config = parseEpochConfig({
      challenges: [
        { id: 'workflow', kind: 'workflow', alpha: 0.5 },
        { id: 'bounty', kind: 'bounty', alpha: 0.5 },
      ],
    });
    expect(config.pipeline).toMatchObject({ min_validators: 3, min_stake_fraction: 0.3, weight_cap: 0.5, burn_uid: 0, u16_mode: 'sum' });
    expect(config.challenges.find((c) => c.kind === 'workflow')).toMatchObject({ kind: 'workflow', weight_cap: 0.15, decay: true });
    expect(Object.isFrozen(config.challenges)).toBe(true);
  });

  it("docs/spec.md G.4: a configuration whose exponential decay has 0 < ρ < 1e-4 is BUNDLE_INVALID_CONFIG naming it (with a huge epoch it would hold an auditor's replay)", () => {
    const config = (decay: Record<string, unknown>) => ({
      pipeline: { decay },
      challenges: [{ id: 'term', kind: 'term_pass_rate', alpha: 1, total_tasks: 10 }],
    });
    expectCode(() => parseEpochConfig(config({ curve: 'exponential', rho: 1e-12 })), 'BUNDLE_INVALID_CONFIG', 'config.pipeline.decay.rho');
    expect(parseEpochConfig(config({ curve: 'exponential', rho: 1e-4 })).pipeline.decay).toMatchObject({ curve: 'exponential', rho: 1e-4 });
    expect(parseEpochConfig(config({ curve: 'exponential', rho: 0 })).pipeline.decay).toMatchObject({ curve: 'exponential', rho: 0 });
    expect(parseEpochConfig(config({ curve: 'linear', rho: 1e-12 })).pipeline.decay).toMatchObject({ curve: 'linear', rho: 1e-12 });
  });

  it('rejects emission shares that sum to more than 1 (SPEC C.7)', () => {
    expectCode(
      () =>
        parseEpochConfig({
          challenges: [
            { id: 'a', kind: 'bounty', alpha: 0.6 },
            { id: 'b', kind: 'workflow', alpha: 0.5 },
          ],
        }),
      'BUNDLE_INVALID_CONFIG',
      'config.challenges',
    );
  });

  it('rejects a challenge kind configured twice, naming it', () => {
    expectCode(
      () =>
        parseEpochConfig({
          challenges: [
            { id: 'a', kind: 'bounty', alpha: 0.1 },
            { id: 'b', kind: 'bounty', alpha: 0.1 },
          ],
        }),
      'BUNDLE_INVALID_CONFIG',
      'config.challenges[1].kind',
    );
  });

  it('names a bad pipeline field and a bad alpha', () => {
    expectCode(
      () => parseEpochConfig({ pipeline: { weight_cap: 2 }, challenges: [{ id: 'a', kind: 'bounty', alpha: 1 }] }),
      'BUNDLE_INVALID_CONFIG',
      'config.pipeline.weight_cap',
    );
    expectCode(() => parseEpochConfig({ challenges: [{ id: 'a', kind: 'bounty', alpha: Number.NaN }] }), 'BUNDLE_INVALID_CONFIG', 'config.challenges[0].alpha');
    expectCode(
      () => parseEpochConfig({ challenges: [{ id: 't', kind: 'term_pass_rate', alpha: 1, total_tasks: 0 }] }),
      'BUNDLE_INVALID_CONFIG',
      'config.challenges[0].total_tasks',
    );
  });

  it('refuses a table keyed by data (base weights) given as a list: its indexes are not task types', () => {
    // ['2'] read as an object is { '0': 2 }: a base weight for a task type named "0"
    expectCode(
      () => parseEpochConfig({ challenges: [{ id: 's', kind: 'sssa', alpha: 1, emission: { base_weights: [2] } }] }),
      'BUNDLE_INVALID_CONFIG',
      'config.challenges[0].emission.base_weights',
    );
  });
});

describe('parseEpochConfig keeps parsed configurations by their JSON text', () => {
  const outcome = (run: () => unknown): unknown => {
    try {
      return { value: run() };
    } catch (error) {
      const e = error as { code: string; message: string };
      return { code: e.code, message: e.message };
    }
  };
  const challenge = fc.oneof(
    fc.record({
      id: fc.constantFrom('term', 'x', 'Bad id'),
      kind: fc.constant('term_pass_rate'),
      alpha: fc.constantFrom(0.5, 1, 2, -0),
      total_tasks: fc.constantFrom(4, 0),
    }),
    fc.record({ id: fc.constantFrom('bounty', 'term'), kind: fc.constant('bounty'), alpha: fc.constantFrom(0.3, 0.5) }),
    fc.record({ id: fc.constant('wf'), kind: fc.constant('workflow'), alpha: fc.constant(0.1), weight_cap: fc.constantFrom(0.2, 0, undefined) }),
  );
  const config = fc.record({
    pipeline: fc.constantFrom<unknown>(undefined, {}, { min_validators: 2 }, { weight_cap: 0 }, { normalisation: { strategy: 'softmax', temperature: 2 } }),
    challenges: fc.array(challenge, { maxLength: 3 }),
  });

  it('gives, on every call, what the schema gives (value or coded error), also for values that have no key (-0, undefined)', () => {
    fc.assert(
      fc.property(config, (c) => {
        const expected = outcome(() => parseInput(epochConfigSchema, c, BUNDLE_ERROR_CODES.invalidConfig, 'config'));
        // Twice: the second call may come from the kept configurations.
        expect(outcome(() => parseEpochConfig(c))).toStrictEqual(expected);
        expect(outcome(() => parseEpochConfig(structuredClone(c)))).toStrictEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same frozen configuration for the same text and a fresh one for another', () => {
    const text = '{"challenges":[{"id":"bounty","kind":"bounty","alpha":1}]}';
    const first = parseEpochConfig(JSON.parse(text));
    expect(parseEpochConfig(JSON.parse(text))).toBe(first);
    expect(Object.isFrozen(first.pipeline)).toBe(true);
    const other = parseEpochConfig(JSON.parse(text.replace('"alpha":1', '"alpha":0.5')));
    expect(other.challenges[0]!.alpha).toBe(0.5);
  });
});
