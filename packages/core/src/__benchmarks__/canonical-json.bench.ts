import { cpus, loadavg } from 'node:os';

import { bench, describe } from 'vitest';

import { canonicalJson, compareCodePoints } from '../index.js';

// Issue 18 item 6: canonical JSON must not build an error path for every key. `before` is the previous
// serialiser (a path string per key and value, code point comparisons through string iterators), kept
// here only to measure against; `JSON.stringify` (no sorting, no checks) is the floor.
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (compare rows of one run: the machine may be shared)`,
);

function before(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) {
      out.push(JSON.stringify(v));
      return;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new Error(path);
      out.push(JSON.stringify(v));
      return;
    }
    if (Array.isArray(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(',');
        walk(item, `${path}[${i}]`);
      });
      out.push(']');
      return;
    }
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => {
      const ia = a[Symbol.iterator]();
      const ib = b[Symbol.iterator]();
      for (;;) {
        const x = ia.next();
        const y = ib.next();
        if (x.done === true) return y.done === true ? 0 : -1;
        if (y.done === true) return 1;
        const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
        if (d !== 0) return d;
      }
    });
    out.push('{');
    keys.forEach((key, i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(key), ':');
      walk(record[key], `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`);
    });
    out.push('}');
  };
  walk(value, '$');
  return out.join('');
}

/** A bundle-like value: 256 miners x 64 validators' scores, with explanations. */
function bundle(miners: number, validators: number) {
  return {
    schema_version: 1,
    netuid: 7,
    epoch: 1234,
    miners: Array.from({ length: miners }, (_, m) => ({
      hotkey: `5miner${m.toString().padStart(4, '0')}`,
      uid: m,
      evaluations: Array.from({ length: validators }, (_, v) => ({ validator: `5val${v}`, score: ((m * 31 + v * 17) % 1000) / 1000, stake: 1000 + v })),
      explanation: { kept: validators, outliers: [], score: (m % 100) / 100 },
    })),
  };
}

const value = bundle(256, 64);
if (canonicalJson(value) !== before(value)) throw new Error('the serialisers disagree');
if ([...Object.keys(value.miners[0]!)].sort(compareCodePoints).join() !== 'evaluations,explanation,hotkey,uid') throw new Error('order');

describe(`canonical JSON of a 256 miners x 64 validators bundle (${(canonicalJson(value).length / 1e6).toFixed(2)} MB)`, () => {
  bench('canonicalJson (no path kept; built only when an error is thrown)', () => {
    canonicalJson(value);
  });
  bench('before: a path string per key, iterator code point sort', () => {
    before(value);
  });
  bench('JSON.stringify (floor: no sort, no checks)', () => {
    JSON.stringify(value);
  });
});
