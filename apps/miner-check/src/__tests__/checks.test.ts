import { readFileSync } from 'node:fs';
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { sssaCheck } from '../commands/sssa.js';
import { termCheck } from '../commands/term.js';
import { weightsCheck } from '../commands/weights.js';
import { MINER_CHECK_ERROR_CODES } from '../errors.js';
import { example } from './cli-support.js';

/** The checks behind `sssa`, `term` and `weights`, called directly (no CLI), for what the CLI tests leave open. */

const read = (...parts: string[]) => JSON.parse(readFileSync(example(...parts), 'utf8')) as Record<string, unknown>;
const member = read('sssa', 'sssa.json') as { sssa: Record<string, unknown> } & Record<string, unknown>;
const peers = JSON.parse(readFileSync(example('sssa', 'peers.json'), 'utf8')) as unknown[];
const BLOCK = `0x${'ab'.repeat(32)}`;

describe('sssa check', () => {
  it('says "(no findings)" in place of the key table for an SSSA without findings', () => {
    const out = sssaCheck({ self: { value: { ...member.sssa, findings: [] }, option: '--sssa' }, peers: [], uid: 0, role: 'primary' });
    expect(out.json.canonical_keys).toEqual([]);
    expect(out.text).toContain('Canonical finding keys\n  (no findings)');
    const withFindings = sssaCheck({ self: { value: member, option: '--sssa' }, peers: [], uid: 0, role: 'primary' });
    expect(withFindings.text).not.toContain('(no findings)');
  });

  it('refuses a member document whose role is "" (it is not replaced by --role)', () => {
    let caught: unknown;
    try {
      sssaCheck({ self: { value: { ...member, role: '' }, option: '--sssa' }, peers: [{ value: peers, option: '--peers' }], uid: 0, role: 'primary' });
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'CONSENSUS_INVALID_GROUP')).toBe(true);
    expect((caught as Error).message).toContain('members[0].role');
  });

  it("with 3 or more SSSAs, the text shows the group sets and this miner's consensus table", () => {
    const out = sssaCheck({ self: { value: member, option: '--sssa' }, peers: [{ value: peers, option: '--peers' }], uid: 0, role: 'primary' });
    expect(out.text).toMatch(/^Group \(n = 5, an item is in the group set when more than 2\.5 members report it: 3 or more\)$/m);
    expect(out.text).toContain(`Your consensus: ${(out.json.consensus as number).toFixed(6)}`);
    expect(out.text).not.toContain('consensus is computed only for 3 or more');
  });

  it('--min-reputation excludes every candidate below it from the draw', () => {
    const draw = (minReputation?: number) =>
      sssaCheck({
        self: { value: member, option: '--sssa' },
        peers: [],
        uid: 0,
        role: 'primary',
        draw: {
          blockHash: BLOCK,
          taskId: 'task-1',
          candidates: { value: JSON.parse(readFileSync(example('sssa', 'candidates.json'), 'utf8')) as unknown, option: '--candidates' },
          primaries: 3,
          auditors: 2,
          ...(minReputation === undefined ? {} : { minReputation }),
        },
      }).json.verification_group as { excluded: { reputation: number; reason: string }[] };
    // candidates.json: 0.91, 0.84, 0.77, 0.42, 0.35, 0.66, 0.12; the default minimum is 0.2
    expect(draw().excluded.map((e) => e.reputation)).toEqual([0.12]);
    expect(
      draw(0.5)
        .excluded.map((e) => e.reputation)
        .sort(),
    ).toEqual([0.12, 0.35, 0.42]);
  });
});

describe('weights check', () => {
  const a = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
  const b = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
  const scores = [
    { uid: 1, hotkey: a, score: 0.9 },
    { uid: 2, hotkey: b, score: 0.5 },
  ];

  it('softmax uses the given temperature: exp((s - max) / T) / sum', () => {
    const out = weightsCheck({ scores, options: { strategy: 'softmax', temperature: 0.5, cap: 1, burnUid: 0 } });
    const share = new Map((out.json.weights as { key: string; share: number }[]).map((w) => [w.key, w.share]));
    const low = Math.exp((0.5 - 0.9) / 0.5);
    expect(share.get(a)).toBeCloseTo(1 / (1 + low), 12);
    expect(share.get(b)).toBeCloseTo(low / (1 + low), 12);
    expect(out.text).toContain('(softmax, T = 0.5, cap 1, u16 sum mode)');
  });

  it('softmax without a temperature names --temperature and that it must be above 0', () => {
    let caught: unknown;
    try {
      weightsCheck({ scores, options: { strategy: 'softmax', cap: 1, burnUid: 0 } });
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, MINER_CHECK_ERROR_CODES.invalidArgument)).toBe(true);
    expect((caught as Error).message).toContain('softmax needs --temperature (a number > 0)');
  });

  it('names the capped miners, or says none', () => {
    const free = weightsCheck({ scores, options: { strategy: 'linear', cap: 1, burnUid: 0 } });
    expect(free.text).toContain('Capped miners: none.');
    const capped = weightsCheck({ scores, options: { strategy: 'linear', cap: 0.6, burnUid: 0 } });
    expect(capped.text).toContain(`Capped miners: ${a}.`);
  });

  it("the table shows each miner's own score beside its share", () => {
    const out = weightsCheck({ scores, options: { strategy: 'linear', cap: 1, burnUid: 0 } });
    const rowOf = (hotkey: string) => out.text.split('\n').find((line) => line.includes(hotkey)) ?? '';
    expect(rowOf(a)).toMatch(/^ *1 +\S+ +0\.9000 +0\.642857 /);
    expect(rowOf(b)).toMatch(/^ *2 +\S+ +0\.5000 +0\.357143 /);
  });
});

describe('term check', () => {
  const results = JSON.parse(readFileSync(example('term', 'results.json'), 'utf8')) as unknown[];

  it('names the tasks never reported only when there are some', () => {
    const all = termCheck({ results, totalTasks: results.length });
    expect(all.text).not.toContain('never reported');
    const short = termCheck({ results, totalTasks: results.length + 2 });
    expect(short.text).toContain(`2 of the benchmark's ${results.length + 2} tasks were never reported: they count as failed.`);
  });
});
