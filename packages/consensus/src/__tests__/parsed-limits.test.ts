import { describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { computeConsensus, computeTaskConsensus, parseSssa } from '../index.js';
import { finding, members, sssa } from './helpers.js';

/**
 * docs/spec.md G.46 (e): a document `parseSssa` returned is held to the limits it is scored under, as the raw document
 * is: parsed under larger limits than `computeTaskConsensus`'s `limits` (or `computeConsensus`'s defaults, or a second
 * `parseSssa`'s), it is validated again against them. Before, "parse once" let it through whatever the limits were.
 */

/** A document with four capabilities, a 40-character target and an unknown field nesting 70 levels when `deep`. */
function doc(deep = false): Record<string, unknown> {
  let nested: unknown = 1;
  for (let i = 0; i < 70; i++) nested = [nested];
  return sssa({
    capabilities: ['fs.read', 'fs.write', 'net.http', 'proc.spawn'],
    findings: [finding('ssrf', 'tools/get.py#L1-L2', { target_pattern: 't'.repeat(40) })],
    ...(deep ? { extra: nested } : {}),
  });
}

function errorOf(run: () => unknown): { code: string; path: unknown; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path, message: error.message };
    throw error;
  }
}

const small = [{ maxListLength: 3 }, { maxStringLength: 39 }, { maxObjectKeys: 3 }, { maxDepth: 3 }] as const;

describe('decision (docs/spec.md G.46 (e)): a parsed document is held to smaller limits as the raw one is', () => {
  it.each(small.map((limits) => [JSON.stringify(limits), limits] as const))(
    'computeTaskConsensus limits %s: the parsed document is excluded exactly as the raw one',
    (_name, limits) => {
      const raw = [doc(), doc(), doc()];
      const parsed = raw.map((d) => parseSssa(d));
      const fromRaw = computeTaskConsensus({ taskId: 't', members: members(raw), limits });
      const fromParsed = computeTaskConsensus({ taskId: 't', members: members(parsed), limits });
      expect(fromRaw.excluded.map((e) => e.code)).toEqual(['CONSENSUS_INVALID_SSSA', 'CONSENSUS_INVALID_SSSA', 'CONSENSUS_INVALID_SSSA']);
      expect(fromParsed.excluded).toEqual(fromRaw.excluded);
      expect(fromParsed.members).toEqual(fromRaw.members);
    },
  );

  it('within the limits it was parsed under (or larger ones) a parsed document is scored as the raw one (passes before and after: a guard)', () => {
    const raw = [doc(), doc(), doc()];
    const parsed = raw.map((d) => parseSssa(d, 'sssa', { limits: { maxListLength: 4 } }));
    for (const limits of [{ maxListLength: 4 }, {}, { maxListLength: 5, maxDepth: 64 }]) {
      const fromParsed = computeTaskConsensus({ taskId: 't', members: members(parsed), limits });
      expect(fromParsed.excluded).toEqual([]);
      expect(fromParsed).toEqual(computeTaskConsensus({ taskId: 't', members: members(raw), limits }));
    }
  });

  it('parseSssa of a parsed document with smaller limits refuses it as it refuses the raw one; within them it returns the same object', () => {
    const raw = doc();
    const parsed = parseSssa(raw);
    for (const limits of small) {
      const refused = errorOf(() => parseSssa(raw, 'sssa', { limits }));
      expect(refused?.code).toBe('CONSENSUS_INVALID_SSSA');
      expect(errorOf(() => parseSssa(parsed, 'sssa', { limits }))).toEqual(refused);
    }
    expect(parseSssa(parsed, 'sssa', { limits: { maxListLength: 4 } })).toBe(parsed);
  });

  it('computeConsensus (the defaults, depth 64): a document parsed under a larger depth is refused as the raw one', () => {
    const raw = doc(true);
    const parsed = parseSssa(raw, 'sssa', { limits: { maxDepth: 100 } });
    const group = (d: Record<string, unknown>) => members([d, doc(), doc()]);
    const refused = errorOf(() => computeConsensus({ taskId: 't', members: group(raw) }));
    expect(refused).toMatchObject({ code: 'CONSENSUS_INVALID_SSSA' });
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group(parsed) }))).toEqual(refused);
  });
});
