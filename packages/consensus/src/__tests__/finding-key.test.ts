import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { canonicalFindingKey, findingKeyPreimage } from '../index.js';

import { finding } from './helpers.js';

/** Goldens: sha256 of each preimage computed outside this code, with
 * python3 -c 'import hashlib;print(hashlib.sha256("<preimage>".encode()).hexdigest())' */
const GOLDEN = [
  {
    preimage: 'tool_poison|high|tools/getfile.py#L12-L18||getfile',
    key: 'e51566bbeccd430e931e2e5ff6882f25c92d8456e35813ca9250e48083182408',
    finding: finding('tool_poison', 'p1-span-01:tools/getfile.py#L12-L18', { target_pattern: 'getfile' }),
  },
  {
    preimage: 'dependency_cve|high|requirements.txt#L3-L3|CVE-2018-18074|requests==2.19.1',
    key: 'd34111404bd94ed7200d410db4b19bb0c8ae42473d781f7eac323756231a2144',
    finding: finding('dependency_cve', 'requirements.txt:3', { cve_ids: ['cve-2018-18074'], target_pattern: 'requests==2.19.1' }),
  },
  {
    preimage: 'prompt_injection|critical|manifest.json#L4-L9||manifest.json',
    key: '15f82c59be47d388cd77849d16691168741f687752d9edd98ae5a7c67987cbdc',
    finding: finding('prompt_injection', 'span-c:./manifest.json:4-9', { severity: 'critical', target_pattern: 'manifest.json' }),
  },
  {
    preimage: 'dependency_cve|critical|poetry.lock|CVE-2021-3918,CVE-2022-0001,GHSA-XXXX-YYYY|json-schema@0.2.3',
    key: 'a8bc00f9dbd9782e879c20465bee068d35566dce35c5022bd224b9c21f2d7e17',
    finding: finding(' Dependency_CVE ', 's:poetry.lock', {
      severity: 'Critical',
      cve_ids: ['ghsa-xxxx-yyyy', ' CVE-2022-0001', 'CVE-2021-3918', 'cve-2021-3918'],
      target_pattern: ' json-schema@0.2.3 ',
    }),
  },
  {
    preimage: 'prompt_injection|high|docs/ünïcode.md#L1-L1||README ✓',
    key: '7f856a9910d2e2f2c519085a7e27805a4f095c1e899c1d79d465621573d5416f',
    finding: finding('prompt_injection', 'docs\\ünïcode.md:1', { target_pattern: 'README ✓' }),
  },
];

describe('canonical finding key (SPEC B)', () => {
  it.each(GOLDEN)('golden key: sha256("$preimage")', ({ preimage, key, finding: f }) => {
    expect(findingKeyPreimage(f)).toBe(preimage);
    expect(canonicalFindingKey(f)).toBe(key);
  });

  const base = finding('tool_poison', 'tools/getfile.py#L12-L18', {
    id: 'f-1',
    description: 'getfile is poisoned',
    cve_ids: ['CVE-2024-0001', 'CVE-2024-0002'],
    target_pattern: 'getfile',
  });
  const baseKey = canonicalFindingKey(base);

  describe('the same finding gives the same key', () => {
    it.each([
      ['another id', { ...base, id: 'miner-b-17' }],
      ['another description', { ...base, description: 'a completely different text' }],
      ['a span-id prefix', { ...base, evidence_ref: 'b-span-3:tools/getfile.py#L12-L18' }],
      ['the ":a-b" range spelling', { ...base, evidence_ref: 'tools/getfile.py:12-18' }],
      ['backslashes, "./" and "//"', { ...base, evidence_ref: '.\\tools\\\\getfile.py#L12-L18' }],
      ['CVE order', { ...base, cve_ids: ['CVE-2024-0002', 'CVE-2024-0001'] }],
      ['CVE case and blanks', { ...base, cve_ids: [' cve-2024-0001 ', 'Cve-2024-0002'] }],
      ['duplicate CVEs', { ...base, cve_ids: ['CVE-2024-0001', 'CVE-2024-0002', 'cve-2024-0002'] }],
      ['category and severity case and blanks', { ...base, category: ' TOOL_Poison ', severity: ' HIGH ' }],
      ['target_pattern blanks', { ...base, target_pattern: '  getfile\t' }],
      ['unknown fields', { ...base, confidence: 0.9 }],
    ])('%s', (_name, variant) => {
      expect(canonicalFindingKey(variant)).toBe(baseKey);
    });
  });

  describe('a different finding gives a different key', () => {
    it.each([
      ['another line range', { ...base, evidence_ref: 'tools/getfile.py#L12-L19' }],
      ['a single line instead of a range', { ...base, evidence_ref: 'tools/getfile.py#L12' }],
      ['no line range', { ...base, evidence_ref: 'tools/getfile.py' }],
      ['another file', { ...base, evidence_ref: 'tools/putfile.py#L12-L18' }],
      ['a CVE fewer', { ...base, cve_ids: ['CVE-2024-0001'] }],
      ['another CVE', { ...base, cve_ids: ['CVE-2024-0001', 'CVE-2024-0003'] }],
      ['no CVEs', { ...base, cve_ids: [] }],
      ['another category', { ...base, category: 'prompt_injection' }],
      ['another severity', { ...base, severity: 'critical' }],
      ['another target', { ...base, target_pattern: 'getfile2' }],
      ['target case (target_pattern is only trimmed)', { ...base, target_pattern: 'GetFile' }],
    ])('%s', (_name, variant) => {
      expect(canonicalFindingKey(variant)).not.toBe(baseKey);
    });
  });

  it('is lowercase hex of 64 characters', () => {
    expect(baseKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['finding.severity', { ...base, severity: 'severe' }],
    ['finding.category', { ...base, category: '  ' }],
    ['finding.category', { ...base, category: 'a|b' }],
    ['finding.evidence_ref', { ...base, evidence_ref: 'a.py#L9-L2' }],
    ['finding.evidence_ref', { ...base, evidence_ref: 'a|b.py' }],
    ['finding.cve_ids[1]', { ...base, cve_ids: ['CVE-1', 'CVE-2,CVE-3'] }],
    ['finding.cve_ids[0]', { ...base, cve_ids: [''] }],
    ['finding.target_pattern', { ...base, target_pattern: '' }],
    ['finding.id', { ...base, id: 7 }],
  ])('rejects a bad finding with CONSENSUS_INVALID_FINDING naming %s', (path, bad) => {
    let error: unknown;
    try {
      canonicalFindingKey(bad);
    } catch (e) {
      error = e;
    }
    expect(isSubnetError(error, 'CONSENSUS_INVALID_FINDING')).toBe(true);
    expect((error as { context: { path: string } }).context.path).toBe(path);
  });
});
