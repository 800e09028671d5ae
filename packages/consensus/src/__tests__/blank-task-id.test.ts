import { describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { assignTask, computeConsensus, computeTaskConsensus, selectVerificationGroup, taskIdSchema, taskTypeSchema, verificationSeed } from '../index.js';
import { hotkey, members, sssa } from './helpers.js';

/**
 * docs/spec.md G.46 (d): a task id (and a task type) is blank when it is empty once SPEC 0's ASCII trim (U+0009 to
 * U+000D and U+0020, from both ends) is done, wherever it is judged: the wire schemas (registration, the bundle's
 * records) and the computations (`computeTaskConsensus`, `computeConsensus`, `selectVerificationGroup`,
 * `verificationSeed`, `assignTask`). Before, the schemas trimmed with `String.prototype.trim` (Unicode white space), so
 * a task id of U+00A0 was refused at registration and accepted by `computeTaskConsensus`.
 */

/** SPEC 0 written out: blank is nothing but U+0009-U+000D and U+0020. */
const specBlank = (text: string) => /^[\t\n\v\f\r ]*$/.test(text);

/** Blank only to Unicode: each a character to SPEC 0. */
const UNICODE_ONLY = ['\u00a0', '\ufeff', '\u2028', ' \u00a0\t', '\u3000', '\u2029\u2028'];
/** Blank to SPEC 0 (and to Unicode). */
const ASCII_BLANK = ['\t', ' ', '\t \n\r\v\f', '   '];

const blockHash = `0x${'ab'.repeat(32)}`;
const candidates = [1, 2, 3, 4, 5, 6, 7].map((i) => ({ uid: i, hotkey: hotkey(i) }));
const reputations = Object.fromEntries(candidates.map((c) => [c.hotkey, 0.5]));
/** The code points of a text, for a test's name (`U+00A0 U+0009`). */
const shown = (text: string) => Array.from({ length: text.length }, (_, i) => `U+${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (isSubnetError(error)) return `${error.code} at ${String(error.context.path)}`;
    throw error;
  }
}

/** Every judge of a task id, each answering whether it took `id` (undefined) or its code and path. */
const judges: readonly (readonly [string, (id: string) => string | undefined])[] = [
  ['taskIdSchema', (id) => (taskIdSchema.safeParse(id).success ? undefined : 'refused')],
  ['taskTypeSchema', (id) => (taskTypeSchema.safeParse(id).success ? undefined : 'refused')],
  ['computeTaskConsensus', (id) => codeOf(() => computeTaskConsensus({ taskId: id, members: members([sssa(), sssa(), sssa()]) }))],
  ['computeTaskConsensus taskType', (id) => codeOf(() => computeTaskConsensus({ taskId: 't', taskType: id, members: members([sssa(), sssa(), sssa()]) }))],
  ['computeConsensus', (id) => codeOf(() => computeConsensus({ taskId: id, members: members([sssa(), sssa(), sssa()]) }))],
  ['selectVerificationGroup', (id) => codeOf(() => selectVerificationGroup({ candidates, reputations, blockHash, taskId: id }))],
  ['verificationSeed', (id) => codeOf(() => verificationSeed(blockHash, id))],
  ['assignTask taskId', (id) => codeOf(() => assignTask({ taskId: id, taskType: 'mcp', blockHash, candidates, reputations: null }))],
  ['assignTask taskType', (id) => codeOf(() => assignTask({ taskId: 't', taskType: id, blockHash, candidates, reputations: null }))],
];

describe('decision (docs/spec.md G.46 (d)): a task id is blank by SPEC 0 ASCII trimming, everywhere it is judged', () => {
  it.each(UNICODE_ONLY.map((id) => [shown(id), id] as const))('%s is not blank: every judge takes it', (_name, id) => {
    expect(specBlank(id)).toBe(false);
    expect(id.trim()).toBe('');
    expect(judges.map(([name, judge]) => [name, judge(id)])).toEqual(judges.map(([name]) => [name, undefined]));
  });

  it.each(ASCII_BLANK.map((id) => [shown(id), id] as const))('%s is blank: every judge refuses it, naming the field', (_name, id) => {
    expect(specBlank(id)).toBe(true);
    expect(judges.map(([name, judge]) => [name, judge(id)])).toEqual([
      ['taskIdSchema', 'refused'],
      ['taskTypeSchema', 'refused'],
      ['computeTaskConsensus', 'CONSENSUS_INVALID_GROUP at taskId'],
      ['computeTaskConsensus taskType', 'CONSENSUS_INVALID_GROUP at taskType'],
      ['computeConsensus', 'CONSENSUS_INVALID_GROUP at taskId'],
      ['selectVerificationGroup', 'CONSENSUS_INVALID_SELECTION at taskId'],
      ['verificationSeed', 'CONSENSUS_INVALID_ARGUMENT at taskId'],
      ['assignTask taskId', 'CONSENSUS_INVALID_SELECTION at taskId'],
      ['assignTask taskType', 'CONSENSUS_INVALID_SELECTION at taskType'],
    ]);
  });

  it('the schema message a bundle carries in an exclusion reason is unchanged: "must not be blank"', () => {
    const parsed = taskIdSchema.safeParse(' \t');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['must not be blank']);
  });
});
