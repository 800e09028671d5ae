import { describe, expect, it } from 'vitest';

import type { BundleAudit } from '../index.js';
import { buildReport, compareFileNames, createProgress, renderHtmlReport } from '../index.js';

const audit = (epoch: number, weights: [number, number][], source = `epoch-${epoch}.json`): BundleAudit => ({
  source,
  status: 'ok',
  epoch,
  netuid: 1,
  validator_hotkey: 'V',
  checks: { schema: true, digest: true, signature: true, recompute: true, chain: null },
  mismatches: [],
  root_cause: null,
  digest: null,
  error: null,
  weights: weights.map(([uid, weight]) => ({ uid, hotkey: `H${uid}`, weight })),
  submission_block: null,
  submission: { status: 'dry_run', code: null, call: null },
});

describe('renderHtmlReport', () => {
  it('charts one line per miner across the epochs, y = u16 / 65535 (missing epoch = 0), first epoch left of the last', () => {
    const html = renderHtmlReport(
      buildReport([
        audit(1, [[1, 65535]]),
        audit(3, [
          [1, 0],
          [2, 65535],
        ]),
      ]),
    );
    const lines = [...html.matchAll(/<polyline [^>]*points="([^"]+)"/g)].map((m) => m[1]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]));
    expect(lines).toHaveLength(2);
    const [h1, h2] = lines as [[number, number][], [number, number][]];
    // H1: full weight at epoch 1 (top), nothing at epoch 3 (baseline); H2 the reverse.
    expect(h1[0]![0]).toBeLessThan(h1[1]![0]);
    expect(h1[0]![1]).toBeLessThan(h1[1]![1]);
    expect(h2[0]![1]).toBe(h1[1]![1]);
    expect(h2[1]![1]).toBe(h1[0]![1]);
  });

  it('labels every epoch in full and lists every hotkey in full in the legend', () => {
    const long = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    const a = { ...audit(2, [[1, 65535]]), weights: [{ uid: 1, hotkey: long, weight: 65535 }] };
    const html = renderHtmlReport(buildReport([audit(1, [[1, 100]]), a]));
    expect(html).toContain('>epoch 1</text>');
    expect(html).toContain('>epoch 2</text>');
    expect(html).toMatch(new RegExp(`<td class="hk">${long}</td>`));
  });

  it('escapes every value (a file name cannot inject markup)', () => {
    const html = renderHtmlReport(
      buildReport([
        {
          ...audit(1, []),
          status: 'mismatch',
          source: '<script>x</script>.json',
          mismatches: [{ epoch: 1, stage: 'digest', miner: null, field: '', path: 'digest', kind: 'value', expected: '<b>', claimed: '"' }],
        },
      ]),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;.json');
    expect(html).toContain('expected &quot;&lt;b&gt;&quot;');
  });
});

describe('progress and ordering', () => {
  it('plain lines off a TTY, nothing when disabled', () => {
    let text = '';
    const p = createProgress({ isTTY: false, write: (s: string) => (text += s) }, 2, 'verify');
    p.tick('a.json', 'ok');
    p.tick('b.json', 'mismatch');
    p.done();
    expect(text).toBe('verify 1/2 a.json ok\nverify 2/2 b.json mismatch\n');
    let none = '';
    const q = createProgress({ isTTY: true, write: (s: string) => (none += s) }, 1, 'verify', false);
    q.tick('a.json');
    q.done();
    expect(none).toBe('');
  });

  it('file names order numbers as numbers', () => {
    expect(['epoch-10.json', 'epoch-2.json', 'epoch-1.json', 'a.json'].sort(compareFileNames)).toEqual([
      'a.json',
      'epoch-1.json',
      'epoch-2.json',
      'epoch-10.json',
    ]);
  });
});
