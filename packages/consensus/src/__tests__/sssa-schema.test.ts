import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { parseSssa, sssaSchema } from '../index.js';

import example from './fixtures/worked-example.json' with { type: 'json' };
import { finding, sssa } from './helpers.js';

function rejection(input: unknown): { code: string; path: string; message: string } {
  try {
    parseSssa(input);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code, path: String(error.context.path), message: error.message };
  }
  throw new Error('expected the document to be rejected');
}

describe('sssaSchema (SPEC B)', () => {
  it('accepts the five worked-example documents', () => {
    for (const member of example.members) expect(sssaSchema.safeParse(member.sssa).success).toBe(true);
  });

  it('keeps skill metadata, schema_version, signature and unknown fields at every level', () => {
    const doc = {
      ...sssa({
        findings: [{ ...finding('c', 'a.py'), confidence: 0.7 }],
        dependencies: [{ package: 'p', version: '1', cves: [], license: 'MIT' }],
        policy: { default: 'deny', rules: [{ resource: 'fs', action: 'read', pattern: '*', note: 'x' }] },
      }),
      schema_version: 'sssa/1',
      skill: { name: 'filebox', version: '1.0.0', nested: { a: 1 } },
      signature: { alg: 'sr25519', value: '0xabcd' },
      x_vendor: { anything: [1, 2] },
    };
    const parsed = parseSssa(doc);
    expect(parsed).toEqual(doc);
  });

  it('accepts a signature given as a string', () => {
    expect(parseSssa(sssa({ signature: '0xdeadbeef' })).signature).toBe('0xdeadbeef');
  });

  it('accepts severities in any case with blanks (the key lowercases them)', () => {
    expect(parseSssa(sssa({ findings: [finding('c', 'a.py', { severity: ' Critical ' })] })).findings[0]?.severity).toBe(' Critical ');
  });

  it.each([
    ['sssa.verdict', sssa({ verdict: 'allow' })],
    ['sssa.verdict', sssa({ verdict: 'MAYBE' })],
    ['sssa.risk_score', sssa({ risk_score: 1.01 })],
    ['sssa.risk_score', sssa({ risk_score: -0.01 })],
    ['sssa.risk_score', sssa({ risk_score: Number.NaN })],
    ['sssa.risk_score', sssa({ risk_score: '0.5' })],
    ['sssa.findings', sssa({ findings: undefined })],
    ['sssa.findings[0].severity', sssa({ findings: [finding('c', 'a.py', { severity: 'urgent' })] })],
    ['sssa.findings[0].evidence_ref', sssa({ findings: [finding('c', 'a.py#L9-L1')] })],
    ['sssa.findings[0].evidence_ref', sssa({ findings: [finding('c', 'span:')] })],
    ['sssa.findings[0].cve_ids', sssa({ findings: [{ ...finding('c', 'a.py'), cve_ids: undefined }] })],
    ['sssa.findings[0].cve_ids[0]', sssa({ findings: [finding('c', 'a.py', { cve_ids: ['A|B'] })] })],
    ['sssa.capabilities[1]', sssa({ capabilities: ['fs.read', ' '] })],
    ['sssa.dependencies[0].version', sssa({ dependencies: [{ package: 'p', version: '', cves: [] }] })],
    ['sssa.dependencies[0].cves', sssa({ dependencies: [{ package: 'p', version: '1' }] })],
    ['sssa.policy.rules', sssa({ policy: {} })],
    ['sssa.policy.rules[0].action', sssa({ policy: { rules: [{ resource: 'fs', action: 3, pattern: '*' }] } })],
    ['sssa.schema_version', sssa({ schema_version: '' })],
    ['sssa.skill', sssa({ skill: 'filebox' })],
  ])('rejects an invalid document with CONSENSUS_INVALID_SSSA naming %s', (path, doc) => {
    const { code, path: got, message } = rejection(doc);
    expect(code).toBe('CONSENSUS_INVALID_SSSA');
    expect(got).toBe(path);
    expect(message).toContain(`at ${path}`);
  });

  it('rejects a document that is not an object', () => {
    expect(rejection(null).code).toBe('CONSENSUS_INVALID_SSSA');
    expect(rejection([]).code).toBe('CONSENSUS_INVALID_SSSA');
  });
});
