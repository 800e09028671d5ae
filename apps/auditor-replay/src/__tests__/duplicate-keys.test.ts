import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';

import type { SignatureVerifier } from '@subnet/bundle';

import { findDuplicateKey } from '../duplicate-keys.js';
import { signatureVerifier, verifyBundles } from '../index.js';

/**
 * A bundle file whose JSON text names a key twice in one object shows two documents: JSON.parse (and jq, Python) take
 * the last value, other readers the first (docs/spec.md G.17). `verify` read the last one and passed the file, so a
 * file could carry a second bundle, or a second `u16` vector beside the signed one, for readers that take the first.
 * Such a file is now invalid with AUDITOR_INVALID_BUNDLE naming the key and where it is; a validator's own bundles
 * (canonical JSON) never repeat a key, and a bundle in other framing without repeats is still verified.
 */

const honest = fileURLToPath(new URL('../../test-corpus/honest/', import.meta.url));
const text = (n: number) => readFileSync(join(honest, `epoch-${n}.json`), 'utf8').trim();
let verify: SignatureVerifier;
beforeAll(async () => {
  verify = await signatureVerifier();
});

describe('verify: a key named twice in one object (docs/spec.md G.17)', () => {
  it('two signed bundles in one file, a shadowed u16 vector, an escaped spelling of a key: each invalid naming the key and its object; pretty-printed honest bundle still ok', async () => {
    const dir = tempDir('auditor-duplicate-keys-');
    const one = text(1);
    // Both bundles verify on their own; JSON.parse keeps the second, a first-wins reader the first.
    writeFileSync(join(dir, 'a-two-bundles.json'), `${one.slice(0, -1)},${text(2).slice(1)}`);
    // A u16 vector giving every weight to uid 0, before the signed one.
    expect(one).toContain('"u16":{"uids":');
    writeFileSync(join(dir, 'b-shadowed-u16.json'), one.replace('"u16":{"uids":', '"u16":{"uids":[0],"weights":[65535]},"u16":{"uids":'));
    // The same key spelled with an escape is the same key.
    writeFileSync(join(dir, 'c-escaped.json'), one.replace('"digest":', '"digest":"00","dig\\u0065st":'));
    // Not canonical (indented), no repeated key: verified as before.
    writeFileSync(join(dir, 'd-pretty.json'), JSON.stringify(JSON.parse(one), null, 2));
    const report = await verifyBundles([dir], { verify });
    expect(report.bundles.map((b) => [b.source.slice(dir.length + 1), b.status, b.error?.code ?? null, b.error?.path ?? null])).toEqual([
      ['a-two-bundles.json', 'invalid', 'AUDITOR_INVALID_BUNDLE', null],
      ['b-shadowed-u16.json', 'invalid', 'AUDITOR_INVALID_BUNDLE', 'bundle.result'],
      ['c-escaped.json', 'invalid', 'AUDITOR_INVALID_BUNDLE', null],
      ['d-pretty.json', 'ok', null, null],
    ]);
    expect(report.bundles[1]?.error?.message).toBe(
      '[AUDITOR_INVALID_BUNDLE] the JSON text names the key "u16" twice in one object at bundle.result: JSON readers differ on which value they take (RFC 8259 section 4), so the file does not hold one bundle; a validator writes canonical JSON, which never repeats a key',
    );
    expect(report.bundles[0]?.error?.message).toContain('names the key "bundle" twice in the top-level object');
    expect(report.bundles[2]?.error?.message).toContain('names the key "digest" twice in the top-level object');
    expect(report.exit_code).toBe(2);
  });

  it('findDuplicateKey: keys per object, arrays by index, strings holding braces and quotes are not keys', () => {
    expect(findDuplicateKey('{"a":1,"b":{"a":2}}')).toBeUndefined();
    expect(findDuplicateKey('{"a":[{"x":1},{"x":2,"y":"}{\\"x\\":"},{"z":1,"z":2}]}')).toEqual({ path: ['a', 2], key: 'z' });
    expect(findDuplicateKey('[{"k":"v","v":{"__proto__":1,"__proto__":2}}]')).toEqual({ path: [0, 'v'], key: '__proto__' });
    expect(findDuplicateKey('{"a":{"b":[1,2]},"c":{"d":{},"d":1}}')).toEqual({ path: ['c'], key: 'd' });
    expect(findDuplicateKey(' {"\\u0061":1,"a":2} ')).toEqual({ path: [], key: 'a' });
  });
});
