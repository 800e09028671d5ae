import { encodeSs58 } from '@subnet/core';

import type { ConsensusMemberInput } from '../index.js';

/**
 * A synthetic group for benchmarks: `members` SSSAs of `findings` findings each. Every member reports
 * the same `findings - 2` shared findings (with its own ids, descriptions and span prefixes) plus two of
 * its own, so the group set and the spurious findings both exercise the key path. `salt` changes every
 * finding's line numbers, so distinct salts share no canonical key (a cold key memo).
 */
export function makeGroup(members: number, findings: number, salt = 0): ConsensusMemberInput[] {
  const out: ConsensusMemberInput[] = [];
  for (let m = 0; m < members; m++) {
    const list = [];
    for (let f = 0; f < findings; f++) {
      const shared = f < findings - 2;
      const line = shared ? 10 * f + 1 + salt * 100_000 : 50_000 + 10 * (m * findings + f) + salt * 100_000;
      list.push({
        id: `m${m}-f${f}`,
        category: f % 3 === 0 ? 'tool_poison' : f % 3 === 1 ? 'prompt_injection' : 'dependency_cve',
        severity: f % 2 === 0 ? 'high' : 'medium',
        description: `member ${m} finding ${f}`,
        evidence_ref: `m${m}-span-${f}:src/tools/file_${f % 7}.py#L${line}-L${line + 4}`,
        cve_ids: f % 3 === 2 ? [`CVE-2024-${1000 + f}`] : [],
        target_pattern: `tool_${f % 7}`,
      });
    }
    out.push({
      uid: m + 1,
      hotkey: encodeSs58(new Uint8Array(32).fill(m + 1)),
      role: m < 3 ? 'primary' : 'auditor',
      sssa: {
        schema_version: 'sssa/1',
        skill: { name: 'bench-skill', type: 'mcp_server' },
        verdict: m === members - 1 ? 'REVIEW' : 'BLOCK',
        risk_score: 0.5 + m / (10 * members),
        findings: list,
        capabilities: ['fs.read', 'fs.write', 'net.http', 'tool:a', 'tool:b', m % 2 === 0 ? 'tool:c' : 'tool:d'],
        dependencies: [
          { package: 'requests', version: '2.19.1', cves: ['CVE-2018-18074'] },
          { package: 'pyyaml', version: '5.3.1', cves: m % 2 === 0 ? ['CVE-2020-14343'] : [] },
          { package: 'urllib3', version: '1.26.4', cves: [] },
        ],
        policy: {
          rules: [
            { resource: 'filesystem', action: 'read', pattern: './workspace/**' },
            { resource: 'filesystem', action: 'deny', pattern: '~/.ssh/**' },
            { resource: 'network', action: 'allow', pattern: 'api.example.com' },
            { resource: 'process', action: 'deny', pattern: '*' },
            { resource: 'env', action: 'read', pattern: m % 2 === 0 ? 'HOME' : 'PATH' },
          ],
        },
        signature: { alg: 'sr25519', value: `0x${'ab'.repeat(64)}` },
      },
    });
  }
  return out;
}
