import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

// miner-check's own commands and shipped example files: what a miner checks locally.
import { sssaCheck } from '../../../miner-check/src/commands/sssa.js';
import { termCheck } from '../../../miner-check/src/commands/term.js';
import { workflowCheck } from '../../../miner-check/src/commands/workflow.js';
import { startValidator } from '../service.js';
import { fakeChain, keys, postExecutor, postSigned, silent, tempDir, testConfig, useKeys, useService } from './helpers.js';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'miner-check', 'examples');
const example = (...parts: string[]): unknown => JSON.parse(readFileSync(join(examples, ...parts), 'utf8'));

const k = useKeys();
const validator = useService(k, {
  config: (dir) =>
    testConfig(dir, {
      scoring: {
        pipeline: { min_validators: 1, min_stake_fraction: 0 },
        challenges: [
          { id: 'workflow', kind: 'workflow', alpha: 0.4, weight_cap: 1 },
          { id: 'sssa', kind: 'sssa', alpha: 0.2, weight_cap: 1 },
          { id: 'term', kind: 'term_pass_rate', alpha: 0.4, weight_cap: 1, total_tasks: 10 },
        ],
      },
    }),
});

describe('miner-check and the validator read the same wire schemas (issue 14 item 8)', () => {
  it("miner-check's example files are accepted by the validator's ingest and score the same at the epoch close", async () => {
    const miner = k.miners[0]!.address;
    const task = example('workflow', 'task.json');
    const plan = example('workflow', 'plan.json');
    const run = example('workflow', 'run.json');
    const results = example('term', 'results.json');
    const wf = await postExecutor(validator.url, '/v1/workflow-runs', { record_id: 'example-wf', miner_hotkey: miner, task, plan, record: run });
    expect(wf.status).toBe(201);
    const term = await postExecutor(validator.url, '/v1/term-results', { record_id: 'example-term', miner_hotkey: miner, results });
    expect(term.status).toBe(201);
    // The SSSA example is a member object; its document goes to a task whose group holds the miner.
    const member = example('sssa', 'sssa.json') as { sssa: unknown };
    const registered = (await (await postExecutor(validator.url, '/v1/tasks', { task_id: 'example-task', task_type: 'mcp_server' })).json()) as {
      group: { hotkey: string }[];
    };
    const inGroup = k.miners.find((m) => registered.group.some((g) => g.hotkey === m.address))!;
    const sssa = await postSigned(validator.url, '/v1/sssa', inGroup, { task_id: 'example-task', sssa: member.sssa });
    expect(sssa.status).toBe(201);

    validator.chain.headBlock = 12n;
    await validator.service.tick();
    const bundle = JSON.parse(readFileSync(join(validator.dir, 'bundles', 'epoch-0.json'), 'utf8')) as {
      bundle: {
        result: { excluded: unknown[]; challenges: { id: string; details: { task_scores?: { score: number }[]; pass_rates?: { pass_rate: number }[] } }[] };
      };
    };
    const result = bundle.bundle.result;
    expect(result.excluded).toEqual([]);
    const checkedWorkflow = workflowCheck({ task, plan, run }).json as { score: number };
    const checkedTerm = termCheck({ results, totalTasks: 10 }).json as { pass_rate: number };
    expect(result.challenges.find((c) => c.id === 'workflow')?.details.task_scores?.[0]?.score).toBe(checkedWorkflow.score);
    expect(result.challenges.find((c) => c.id === 'term')?.details.pass_rates?.[0]?.pass_rate).toBe(checkedTerm.pass_rate);
    // The document miner-check validated is the one the validator scored (its canonical keys are valid).
    expect(sssaCheck({ self: { value: member, option: '--sssa' }, peers: [], uid: 0, role: 'primary' }).json).toHaveProperty('canonical_keys');
  });
});

describe('miner-check computes the SSSA consensus score the validator computes (issue 14 item 8)', () => {
  it('sssa: given the group documents with their uids, hotkeys and roles, miner-check gives each member the consensus and components of the bundle', async () => {
    const k2 = await keys();
    const chain2 = fakeChain(k2);
    const t = tempDir();
    const scoring = {
      pipeline: { min_validators: 1, min_stake_fraction: 0 },
      challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 2, auditors: 1 } }],
    };
    const svc = await startValidator({ config: testConfig(t.dir, { scoring }), chain: chain2, logger: silent, autoTick: false });
    try {
      // Three different documents: miner-check's example and two of its example peers (their disagreements
      // give consensus values below 1).
      const documents = [
        (example('sssa', 'sssa.json') as { sssa: unknown }).sssa,
        ...(example('sssa', 'peers.json') as { sssa: unknown }[]).map((p) => p.sssa),
      ];
      const registered = (await (await postExecutor(svc.url, '/v1/tasks', { task_id: 'parity-task', task_type: 'mcp_server' })).json()) as {
        group: { hotkey: string; uid: number; role: 'primary' | 'auditor' }[];
      };
      expect(registered.group).toHaveLength(3);
      const members = registered.group.map((g, i) => ({ uid: g.uid, hotkey: g.hotkey, role: g.role, sssa: documents[i] }));
      for (const m of members) {
        const pair = k2.miners.find((p) => p.address === m.hotkey)!;
        expect((await postSigned(svc.url, '/v1/sssa', pair, { task_id: 'parity-task', sssa: m.sssa })).status).toBe(201);
      }
      chain2.headBlock = 12n;
      await svc.tick();
      const doc = JSON.parse(readFileSync(join(t.dir, 'bundles', 'epoch-0.json'), 'utf8')) as {
        bundle: {
          result: {
            excluded: unknown[];
            challenges: {
              id: string;
              details: { groups: { consensus: { members: { hotkey: string; consensus: number; components: Record<string, number> }[] } }[] };
            }[];
          };
        };
      };
      expect(doc.bundle.result.excluded).toEqual([]);
      const scored = doc.bundle.result.challenges.find((c) => c.id === 'sssa')!.details.groups[0]!.consensus.members;
      expect(scored).toHaveLength(3);
      expect(scored.some((m) => m.consensus < 1)).toBe(true);
      for (const m of members) {
        const others = members.filter((o) => o !== m);
        const checked = sssaCheck({ self: { value: m, option: '--sssa' }, peers: [{ value: others, option: '--peers[0]' }], uid: 0, role: 'primary' }).json as {
          consensus: number;
          components: Record<string, number>;
        };
        const inBundle = scored.find((s) => s.hotkey === m.hotkey)!;
        expect(checked.consensus).toBe(inBundle.consensus);
        expect(Object.values(checked.components)).toEqual(
          ['findingsRecall', 'findingsPrecision', 'verdictAgreement', 'capabilitiesAgreement', 'riskAgreement', 'dependenciesAgreement', 'policyAgreement'].map(
            (name) => inBundle.components[name] ?? inBundle.components[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)],
          ),
        );
      }
    } finally {
      await svc.stop();
      t.cleanup();
    }
  });
});
