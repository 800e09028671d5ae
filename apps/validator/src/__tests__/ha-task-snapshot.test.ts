/**
 * HA on PostgreSQL (issue 17, item 1): an epoch's task snapshot (the candidates and the per-type
 * reputation table its draws read, docs/spec.md G.3) must hold the reputations the previous epoch's close
 * carried. Two validator services share one real PostgreSQL schema: the leader closes epochs, the standby
 * only ingests. The race pinned here: the standby sees the new head first (the instances poll the chain
 * independently), while the leader has not yet stored the close of the ended epoch; a snapshot taken then
 * reads the carry of the epoch before, is stored first, and the leader's correct one is refused as a
 * conflict. Only the lease holder, once its close of the ended epoch is stored, takes snapshots.
 */
import { parseReputationTable } from '@subnet/consensus';
import { describe, expect, it } from 'vitest';

import { PG_SKIP_REASON, PG_URL, postExecutor, postSigned, requirePostgresInCi, smallGroups, sssaDoc, startHaPair, useCleanups, useKeys } from './helpers.js';

requirePostgresInCi();

const k = useKeys();

const cleanups = useCleanups();

interface Group {
  readonly group?: { hotkey: string; role: string; uid: number }[];
  readonly error?: { code: string };
}

describe.skipIf(PG_URL === undefined)(`task snapshots with a standby on PostgreSQL${PG_URL === undefined ? ` (${PG_SKIP_REASON})` : ''}`, () => {
  // A long lease: the leader keeps it for the whole test, whatever the machine's load.
  const pair = () => startHaPair(k, cleanups, { leaseTtlMs: 60_000, scoring: smallGroups });

  it('the standby seeing the new head first takes no snapshot: the epoch draws from the reputations its predecessor carried', async () => {
    const { leader, standby, chain } = await pair();
    // Epoch 0: a task, its primary answers, its auditor stays silent (reputation 0.5 -> 0.9 x 0.5 at the close).
    const group = ((await (await postExecutor(leader.url, '/v1/tasks', { task_id: 'rep-0', task_type: 'scan' })).json()) as Group).group ?? [];
    const primary = k.miners.find((m) => m.address === group[0]?.hotkey);
    expect(primary).toBeDefined();
    expect((await postSigned(standby.url, '/v1/sssa', primary!, { task_id: 'rep-0', sssa: sssaDoc() })).status).toBe(201);

    // The head enters epoch 1; the standby's poll sees it before the leader's does.
    chain.headBlock = 15n;
    await standby.tick();
    expect(standby.currentEpoch()).toBe(1);
    expect(await leader.storage.getEpoch(0)).toBeUndefined();
    // Until the leader's close stores the carry and its snapshot, no task of epoch 1 is drawn anywhere.
    const early = await postExecutor(standby.url, '/v1/tasks', { task_id: 'rep-1', task_type: 'scan' });
    expect([early.status, ((await early.json()) as Group).error?.code]).toEqual([503, 'TASKS_NOT_READY']);

    await leader.tick();
    const closed = await leader.storage.getEpoch(0);
    const carried = (JSON.parse(closed?.carry ?? 'null') as { reputations: unknown } | null)?.reputations;
    expect(carried).toEqual([{ task_type: 'scan', hotkey: group[1]?.hotkey, reputation: 0.9 * 0.5 }]);
    // The stored snapshot of epoch 1 holds exactly that table, whoever answers the next task.
    const stored = await leader.storage.findRecord('task_snapshot', 'snapshot-1');
    expect((JSON.parse(stored?.body ?? '{}') as { reputations: unknown }).reputations).toEqual(parseReputationTable(carried).entries);
    const viaStandby = await postExecutor(standby.url, '/v1/tasks', { task_id: 'rep-1', task_type: 'scan' });
    expect(viaStandby.status).toBe(201);
    const lookedUp = (await (await fetch(`${leader.url}/v1/tasks/rep-1`)).json()) as Group;
    expect(lookedUp.group).toEqual(((await viaStandby.json()) as Group).group);

    // Epoch 1's bundle records the table its draws used: the one epoch 0 carried.
    chain.headBlock = 25n;
    await standby.tick();
    await leader.tick();
    const bundle = JSON.parse((await leader.storage.getEpoch(1))?.bundle ?? '{}') as { bundle: { inputs: { reputations: unknown } } };
    expect(bundle.bundle.inputs.reputations).toEqual(carried);
  });
});
