// The append-only checks of published error codes, shared by every package's error-codes test: callers
// branch on these strings, so a code may be added but never renamed, changed or removed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';

export function expectPublishedCodes(codes, published) {
  const names = Object.keys(published);
  for (const name of names) expect([name, codes[name]]).toEqual([name, published[name]]);
  expect(Object.keys(codes).slice(0, names.length)).toEqual(names);
  expect(new Set(Object.values(codes)).size).toBe(Object.values(codes).length);
  expect(Object.isFrozen(codes)).toBe(true);
}

export function sourceText(srcUrl) {
  const root = fileURLToPath(srcUrl);
  const files = readdirSync(root, { recursive: true }).filter(
    (f) => f.endsWith('.ts') && !f.split(/[\\/]/).some((part) => part === '__tests__' || part === '__benchmarks__'),
  );
  return files.map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
}

export function expectRaisedCodes(srcUrl, prefix, published) {
  const raised = new Set();
  for (const m of sourceText(srcUrl).matchAll(new RegExp(`'(${prefix}[A-Z0-9_]+)'`, 'g'))) raised.add(m[1]);
  expect(published.filter((code) => !raised.has(code))).toEqual([]);
  expect([...raised].filter((code) => !published.includes(code)).sort()).toEqual([]);
  expect(new Set(published).size).toBe(published.length);
}

export function expectCodesInOneFile(srcUrl, prefix, codesFile) {
  const root = fileURLToPath(srcUrl);
  const files = readdirSync(root, { recursive: true }).filter(
    (f) => f.endsWith('.ts') && !f.split(/[\\/]/).some((part) => part === '__tests__' || part === '__benchmarks__'),
  );
  const outside = [];
  for (const f of files) {
    if (f.split(/[\\/]/).join('/') === codesFile) continue;
    for (const m of readFileSync(join(root, f), 'utf8').matchAll(new RegExp(`'(${prefix}[A-Z0-9_]+)'`, 'g'))) outside.push(`${f}: ${m[1]}`);
  }
  expect(outside).toEqual([]);
}
