import { join } from 'node:path';

import Database from 'better-sqlite3';

import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';

import { SubnetError } from '@subnet/core';

import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
import {
  bountyBody,
  captureLog,
  fakeChain,
  freshSchema,
  PG_SKIP_REASON,
  PG_URL,
  postExecutor,
  requirePostgresInCi,
  silent,
  tempDir,
  testConfig,
  useCleanups,
  useKeys,
} from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

/**
 * A subnet whose tempo changes while the validator runs (the owner's `set_tempo`, root's `sudo_set_tempo`): with
 * `chain.epoch_length` unset the validator took its epoch length from the tempo at every metagraph read, so its epoch
 * numbers (⌊block / length⌋, stored with every record and epoch row) jumped: a shorter tempo skipped epochs whose
 * records were never closed, a longer one sent the numbers back below the current epoch and nothing closed until they
 * caught up. The length read first is kept, with a warning that says what following the new tempo takes.
 */
describe('the subnet tempo changes while the validator runs (chain.epoch_length unset)', () => {
  it('the epoch length read first is kept, and TEMPO_CHANGED says the new tempo and how to keep the numbering', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = testConfig(t.dir, { chain: { poll_ms: 20, commit_store: `${t.dir}/commits.json` } });
    const { logger, lines } = captureLog('warn');
    const chain = fakeChain(k, 10);
    const service = await startValidator({ config, chain, logger, autoTick: false });
    cleanups.push(() => service.stop());
    expect(service.currentEpoch()).toBe(0);
    chain.tempo = 4;
    // Epoch 1 begins (block 12 with 10-block epochs): epoch 0 closes and the metagraph is read again, tempo 4 now.
    chain.headBlock = 12n;
    await service.tick();
    expect(service.currentEpoch()).toBe(1);
    // Block 13 is still epoch 1 of 10 blocks (with 4-block epochs it would be epoch 3, skipping epoch 2).
    chain.headBlock = 13n;
    await service.tick();
    expect(service.currentEpoch()).toBe(1);
    const warning = lines.find((l) => l.code === 'TEMPO_CHANGED');
    expect(warning).toMatchObject({ level: 40, tempo: 4, epoch_length: 10 });
    expect(warning?.msg).toContain('epochs here stay 10 blocks, the length this database numbers its epochs by');
    expect(warning?.msg).toContain('to follow the tempo, set chain.epoch_length to 4 and restart');
    // Said once, not at every read.
    chain.headBlock = 22n;
    await service.tick();
    expect(lines.filter((l) => l.code === 'TEMPO_CHANGED')).toHaveLength(1);
    expect(service.currentEpoch()).toBe(2);
  });
});

/**
 * Epoch numbers are stored with every record and epoch row, so the database records the length they were computed with
 * and every start keeps it (epoch-numbering.ts, docs/spec.md G.11). Before, a restart with `chain.epoch_length` unset
 * took the new tempo (a shorter one published the open epoch as missed), and a changed `chain.epoch_length` renumbered
 * silently (a longer one filed new records under numbers already closed).
 */
describe('the epoch numbering is kept across restarts (epoch-numbering.ts)', () => {
  const unset = (dir: string) => testConfig(dir, { chain: { poll_ms: 20, commit_store: `${dir}/commits.json` } });
  const withLength = (dir: string, epochLength: number) =>
    testConfig(dir, { chain: { epoch_length: epochLength, poll_ms: 20, commit_store: `${dir}/commits.json` } });

  it('chain.epoch_length unset: a restart after a tempo change keeps the recorded length, and the open epoch closes at its boundary', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k, 10);
    let service: ValidatorService = await startValidator({ config: unset(t.dir), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect(await service.storage.epochNumbering()).toMatchObject({ length: 10 });
    chain.headBlock = 12n;
    await service.tick();
    expect(service.currentEpoch()).toBe(1);
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[0]!.address))).status).toBe(201);
    await service.stop();
    // The owner shortens the tempo while the validator is down; it restarts in the same epoch 1 (of 10 blocks).
    chain.tempo = 4;
    chain.headBlock = 15n;
    const { logger, lines } = captureLog('warn');
    service = await startValidator({ config: unset(t.dir), chain, logger, autoTick: false });
    // With the tempo's numbering block 15 is epoch 3: epoch 1, holding the record, would be published as missed.
    expect(service.currentEpoch()).toBe(1);
    expect(lines.find((l) => l.code === 'TEMPO_CHANGED')).toMatchObject({ tempo: 4, epoch_length: 10 });
    chain.headBlock = 21n;
    await service.tick();
    expect((await service.storage.getEpoch(1))?.status).toBe('submitted');
    expect(chain.submissions).toHaveLength(2);
  });

  /** A database of 10-block epochs holding a record in epoch 4 (block 45), its validator stopped. */
  async function storedEpoch4(): Promise<{ dir: string; chain: ReturnType<typeof fakeChain> }> {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k, 10);
    chain.headBlock = 45n;
    const service = await startValidator({ config: withLength(t.dir, 10), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b4', k.miners[0]!.address))).status).toBe(201);
    await service.stop();
    return { dir: t.dir, chain };
  }

  it('a chain.epoch_length that would reuse stored epoch numbers is refused at start, naming both lengths; the database is left as it was', async () => {
    const { dir, chain } = await storedEpoch4();
    // 20-block epochs put block 45 in epoch 2, below the stored epoch 4.
    const refused = await startValidator({ config: withLength(dir, 20), chain, logger: silent, autoTick: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SubnetError);
    const error = refused as SubnetError;
    expect(error.code).toBe('VALIDATOR_EPOCH_RENUMBERING');
    expect(error.context).toMatchObject({ path: 'chain.epoch_length', value: 20, recorded: 10, highestEpoch: 4 });
    expect(error.message).toContain('this database numbers its epochs by 10 blocks');
    expect(error.message).toContain('at block 45 the new numbering is at epoch 2');
    expect(error.message).toContain('it passes epoch 4 at block 100');
    expect(error.message).toContain('Set chain.epoch_length to 10');
    // The same database still starts with its own length, the record in its epoch.
    const service = await startValidator({ config: withLength(dir, 10), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect(await service.storage.epochNumbering()).toEqual({ length: 10, highestEpoch: 4 });
    expect(service.currentEpoch()).toBe(4);
  });

  it('a shorter chain.epoch_length numbers the head above every stored epoch: taken, recorded and said (EPOCH_LENGTH_CHANGED)', async () => {
    const { dir, chain } = await storedEpoch4();
    const { logger, lines } = captureLog('warn');
    // 5-block epochs put block 45 in epoch 9, above the stored epoch 4.
    const service = await startValidator({ config: withLength(dir, 5), chain, logger, autoTick: false });
    cleanups.push(() => service.stop());
    expect(service.currentEpoch()).toBe(9);
    expect(await service.storage.epochNumbering()).toMatchObject({ length: 5 });
    expect(lines.find((l) => l.code === 'EPOCH_LENGTH_CHANGED')).toMatchObject({ level: 40, epoch_length: 5, previous_epoch_length: 10, highest_epoch: 4 });
    // Epoch 4 of the old numbering, with its record, was closed as after downtime (published as missed).
    expect((await service.storage.getEpoch(4))?.status).toBe('missed');
  });

  it('a head more than one epoch below the stored epochs (a reset chain, another chain) refuses the start; one epoch below is a lagging node and starts', async () => {
    const { dir, chain } = await storedEpoch4();
    // A devnet started again: block 5 is epoch 0, and epochs 1-4 of the database would never be submitted again.
    chain.headBlock = 5n;
    for (const config of [withLength(dir, 10), unset(dir)]) {
      const refused = await startValidator({ config, chain, logger: silent, autoTick: false }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SubnetError);
      const error = refused as SubnetError;
      expect(error.code).toBe('VALIDATOR_HEAD_BEHIND_DATABASE');
      expect(error.context).toMatchObject({ path: 'chain.head', value: '5', headEpoch: 0, highestEpoch: 4, epochLength: 10 });
      expect(error.message).toContain('the chain head is at block 5, epoch 0 of 10 blocks, but this database holds epochs up to 4');
    }
    // Block 39 is epoch 3, one below: a node a few blocks behind the last run's, near a boundary.
    chain.headBlock = 39n;
    const service = await startValidator({ config: withLength(dir, 10), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect(service.currentEpoch()).toBe(3);
  });

  it("a recorded length of tempo + 1 (the chain's own cycle) is kept with chain.epoch_length unset, without TEMPO_CHANGED", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k, 10);
    const first = await startValidator({ config: withLength(t.dir, 11), chain, logger: silent, autoTick: false });
    await first.stop();
    const { logger, lines } = captureLog('warn');
    const service = await startValidator({ config: unset(t.dir), chain, logger, autoTick: false });
    cleanups.push(() => service.stop());
    chain.headBlock = 23n;
    await service.tick();
    expect(service.currentEpoch()).toBe(2);
    expect(lines.filter((l) => l.code === 'TEMPO_CHANGED')).toEqual([]);
  });

  it('a new database records the length it starts with: the configured one, or else the tempo read first', async () => {
    const a = tempDir();
    cleanups.push(a.cleanup);
    const configured = await startValidator({ config: withLength(a.dir, 7), chain: fakeChain(k, 10), logger: silent, autoTick: false });
    cleanups.push(() => configured.stop());
    expect(await configured.storage.epochNumbering()).toMatchObject({ length: 7 });
    const b = tempDir();
    cleanups.push(b.cleanup);
    const fromTempo = await startValidator({ config: unset(b.dir), chain: fakeChain(k, 12), logger: silent, autoTick: false });
    cleanups.push(() => fromTempo.stop());
    expect(await fromTempo.storage.epochNumbering()).toMatchObject({ length: 12 });
  });
});

/**
 * A database written by a version that did not record its epoch length holds epochs but no length. Its first start on
 * this version records the length it uses, after checking that the head is not below the stored epochs under it: then
 * they were numbered by a shorter length (the tempo changed while the older version ran with chain.epoch_length unset)
 * and new records would be filed under numbers already stored. Before, the start took the length silently.
 */
describe('a database from a version that did not record its epoch length', () => {
  /** A database of 5-block epochs holding a record in epoch 8 (block 42), its recorded length then removed. */
  async function olderDatabase(): Promise<{ dir: string; chain: ReturnType<typeof fakeChain> }> {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k, 5);
    chain.headBlock = 42n;
    const service = await startValidator({
      config: testConfig(t.dir, { chain: { poll_ms: 20, commit_store: `${t.dir}/commits.json` } }),
      chain,
      logger: silent,
      autoTick: false,
    });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('old-8', k.miners[0]!.address))).status).toBe(201);
    await service.stop();
    const db = new Database(join(t.dir, 'validator.sqlite'));
    db.prepare('DELETE FROM epoch_numbering').run();
    db.close();
    return { dir: t.dir, chain };
  }
  const unset = (dir: string) => testConfig(dir, { chain: { poll_ms: 20, commit_store: `${dir}/commits.json` } });

  it('chain.epoch_length unset, the tempo now longer: the head is below the stored epochs under it, and the start is refused', async () => {
    const { dir, chain } = await olderDatabase();
    // The owner lengthened the tempo to 10 while the older version ran: block 45 is epoch 4 of 10 blocks, below epoch 8.
    chain.tempo = 10;
    chain.headBlock = 45n;
    const refused = await startValidator({ config: unset(dir), chain, logger: silent, autoTick: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SubnetError);
    const error = refused as SubnetError;
    expect(error.code).toBe('VALIDATOR_EPOCH_RENUMBERING');
    expect(error.context).toMatchObject({ path: 'chain.epoch_length', value: null, recorded: null, highestEpoch: 8, length: 10 });
    expect(error.message).toContain('this database holds epochs up to 8 but no record of the epoch length');
    expect(error.message).toContain("the subnet's tempo, 10 blocks, puts the head (block 45) in epoch 4, below them");
    // Nothing was recorded: the same database starts with the length the older version used, and keeps it.
    const service = await startValidator({
      config: testConfig(dir, { chain: { epoch_length: 5, poll_ms: 20, commit_store: `${dir}/commits.json` } }),
      chain,
      logger: silent,
      autoTick: false,
    });
    cleanups.push(() => service.stop());
    expect(service.currentEpoch()).toBe(9);
    expect(await service.storage.epochNumbering()).toMatchObject({ length: 5 });
    // Epoch 8, holding the record, closed as the epoch before the head's.
    expect((await service.storage.getEpoch(8))?.status).toBe('submitted');
  });

  it('a configured length that puts the head below the stored epochs is refused too', async () => {
    const { dir, chain } = await olderDatabase();
    chain.headBlock = 45n;
    const config = testConfig(dir, { chain: { epoch_length: 20, poll_ms: 20, commit_store: `${dir}/commits.json` } });
    const refused = await startValidator({ config, chain, logger: silent, autoTick: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as SubnetError).code).toBe('VALIDATOR_EPOCH_RENUMBERING');
    expect((refused as SubnetError).message).toContain('chain.epoch_length 20 puts the head (block 45) in epoch 2, below them');
  });

  it('the tempo unchanged: its length is recorded at the start, and the stored epoch goes on', async () => {
    const { dir, chain } = await olderDatabase();
    chain.headBlock = 43n;
    const service = await startValidator({ config: unset(dir), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect(await service.storage.epochNumbering()).toEqual({ length: 5, highestEpoch: 8 });
    expect(service.currentEpoch()).toBe(8);
    chain.headBlock = 45n;
    await service.tick();
    expect((await service.storage.getEpoch(8))?.status).toBe('submitted');
  });
});

describe('tempo 0 at start-up on a database that records another length', () => {
  it('is said once, by TEMPO_ZERO naming the recorded length, not again by TEMPO_CHANGED', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = testConfig(t.dir, { chain: { poll_ms: 20, commit_store: `${t.dir}/commits.json` } });
    const chain = fakeChain(k, 10);
    const first = await startValidator({ config, chain, logger: silent, autoTick: false });
    await first.stop();
    chain.tempo = 0;
    const { logger, lines } = captureLog('warn');
    const service = await startValidator({ config, chain, logger, autoTick: false });
    cleanups.push(() => service.stop());
    chain.headBlock = 12n;
    await service.tick();
    expect(lines.filter((l) => l.code === 'TEMPO_ZERO')).toHaveLength(1);
    expect(lines.find((l) => l.code === 'TEMPO_ZERO')?.msg).toContain('the epochs here are 10 blocks, the length this database numbers its epochs by');
    expect(lines.filter((l) => l.code === 'TEMPO_CHANGED')).toEqual([]);
    expect(lines.filter((l) => String(l.msg).includes('the chain runs no epoch'))).toHaveLength(1);
  });
});

/**
 * Under HA every instance reads the recorded length at start only. Before, an instance still running when another one
 * restarted with a new chain.epoch_length went on filing records, and closing epochs when it led, under the old
 * numbering, until it was restarted itself. A running instance now follows the recorded length at its next tick.
 */
describe.skipIf(PG_URL === undefined)(
  `a running instance follows the epoch length another instance records${PG_URL === undefined ? ` (${PG_SKIP_REASON})` : ''}`,
  () => {
    requirePostgresInCi();

    it('the leader, still at 10-block epochs, takes the 5-block numbering a restarted standby recorded, and files records under it', async () => {
      const fresh = await freshSchema();
      cleanups.push(fresh.drop);
      const chain = fakeChain(k, 10);
      chain.headBlock = 42n;
      const instance = async (epochLength: number, logger: Logger) => {
        const t = tempDir();
        cleanups.push(t.cleanup);
        const config = testConfig(t.dir, {
          database: { url: PG_URL },
          ha: { lease_ttl_ms: 60_000 },
          chain: { epoch_length: epochLength, poll_ms: 20, commit_store: join(t.dir, 'commits.json') },
        });
        const service = await startValidator({ config, chain, logger, autoTick: false, postgresSchema: fresh.schema });
        cleanups.push(() => service.stop());
        return service;
      };
      const { logger, lines } = captureLog('warn');
      const leader = await instance(10, logger);
      expect(leader.currentEpoch()).toBe(4);
      expect((await postExecutor(leader.url, '/v1/bounty-records', bountyBody('e4', k.miners[0]!.address))).status).toBe(201);
      // A second instance starts with 5-block epochs: block 43 is epoch 8 of those, above the stored epoch 4, so it is taken.
      chain.headBlock = 43n;
      const standby = await instance(5, silent);
      expect(standby.currentEpoch()).toBe(8);
      expect(await leader.storage.epochNumbering()).toMatchObject({ length: 5 });
      // The leader's next tick follows it (with 10-block epochs block 43 is still epoch 4).
      await leader.tick();
      expect(leader.currentEpoch()).toBe(8);
      expect(lines.find((l) => l.code === 'EPOCH_LENGTH_CHANGED')).toMatchObject({ level: 40, epoch_length: 5, previous_epoch_length: 10, epoch: 8 });
      expect(lines.find((l) => l.code === 'EPOCH_LENGTH_CHANGED')?.msg).toContain('set chain.epoch_length to 5 here too');
      // Epoch 4 of the old numbering, with its record, was closed as after downtime; new records go to epoch 8.
      expect((await leader.storage.getEpoch(4))?.status).toBe('missed');
      expect((await postExecutor(leader.url, '/v1/bounty-records', bountyBody('e8', k.miners[1]!.address))).status).toBe(201);
      expect((await leader.storage.findRecord('bounty', 'e8'))?.epoch).toBe(8);
      // At the next boundary of 5-block epochs the leader closes epoch 8.
      chain.headBlock = 45n;
      await leader.tick();
      expect((await leader.storage.getEpoch(8))?.status).toBe('submitted');
    });
  },
);
