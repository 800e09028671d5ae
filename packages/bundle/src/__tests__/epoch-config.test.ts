import { describe, expect, it } from 'vitest';

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
});
