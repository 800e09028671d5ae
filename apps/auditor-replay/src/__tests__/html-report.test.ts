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
  error: null,
  weights: weights.map(([uid, weight]) => ({ uid, hotkey: `H${uid}`, weight })),
  submission_block: null,
});

describe('renderHtmlReport', () => {
  it('charts one line per miner across the epochs, y = u16 / 65535 (missing epoch = 0)', () => {
    const html = renderHtmlReport(buildReport([audit(1, [[1, 65535]]), audit(3, [[1, 0], [2, 65535]])]));
    const lines = [...html.matchAll(/<polyline [^>]*points="([^"]+)"/g)].map((m) => m[1]!.split(' '));
    expect(lines).toHaveLength(2);
    // Two epochs -> two points per line; H1 goes from the top (y = 10) to the baseline (y = 360 - 30).
    expect(lines[0]).toEqual(['50.0,10.0', '890.0,330.0']);
    expect(lines[1]).toEqual(['50.0,330.0', '890.0,10.0']);
  });

  it('escapes every value (a file name cannot inject markup)', () => {
    const html = renderHtmlReport(buildReport([{ ...audit(1, []), status: 'mismatch', source: '<script>x</script>.json', mismatches: [{ epoch: 1, stage: 'digest', miner: null, field: '', path: 'digest', kind: 'value', expected: '<b>', claimed: '"' }] }]));
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
    expect(['epoch-10.json', 'epoch-2.json', 'epoch-1.json', 'a.json'].sort(compareFileNames)).toEqual(['a.json', 'epoch-1.json', 'epoch-2.json', 'epoch-10.json']);
  });
});
