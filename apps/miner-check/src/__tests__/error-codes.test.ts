import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, it } from 'vitest';

/**
 * Issue 20 item 6: codes are append-only. miner-check writes its codes as string literals where it raises
 * them (there is no constants file), so this test reads its own source: every code written out here must
 * still be raised somewhere in `src/` (a renamed or removed code fails), and every `MINER_CHECK_` code the
 * source raises must be listed here (a new code is appended to this list, by hand, in review).
 */
const PUBLISHED = [
  'MINER_CHECK_UNREADABLE_INPUT',
  'MINER_CHECK_MALFORMED_JSON',
  'MINER_CHECK_INVALID_ARGUMENT',
  'MINER_CHECK_INVALID_INPUT',
  'MINER_CHECK_MINER_NOT_FOUND',
  'MINER_CHECK_USAGE',
  'MINER_CHECK_INTERNAL',
];

function raisedCodes(): Set<string> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = (readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.ts') && !f.split(/[\\/]/).some((part) => part === '__tests__' || part === '__benchmarks__'),
  );
  const codes = new Set<string>();
  for (const f of files) for (const m of readFileSync(join(root, f), 'utf8').matchAll(/'(MINER_CHECK_[A-Z0-9_]+)'/g)) codes.add(m[1] as string);
  return codes;
}

it('codes are append-only: every published miner-check code is still raised, and every raised code is published', () => {
  const raised = raisedCodes();
  expect(PUBLISHED.filter((code) => !raised.has(code))).toEqual([]);
  expect([...raised].filter((code) => !PUBLISHED.includes(code)).sort()).toEqual([]);
  expect(new Set(PUBLISHED).size).toBe(PUBLISHED.length);
});
