import { join } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { SubnetError } from '@subnet/core';

import { startValidator } from '../service.js';
import { bountyBody, fakeChain, postExecutor, silent, tempDir, testConfig, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

const FINNEY = '0x2f0555cc76fc2840a25a6ea3b9637146806f1f44b090c175ffde2a7e5ab36c03';

/** Starts a validator on `dir` and resolves to the coded error its start was refused with (undefined: it started). */
async function refusal(dir: string, netuid: number, chain: ReturnType<typeof fakeChain>): Promise<SubnetError | undefined> {
  return startValidator({ config: testConfig(dir, { netuid }), chain, logger: silent, autoTick: false }).then(
    async (service) => {
      await service.stop();
      return undefined;
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(SubnetError);
      return error as SubnetError;
    },
  );
}

/**
 * A database holds one subnet's records, epochs, bundles and carried state (windows, reward decay, reputations), on one
 * chain. Before, nothing said which: the default `database.path` (./validator.sqlite) shared by a second validator for
 * another netuid, or a configuration pointed at another network, carried one subnet's state into the other's scoring.
 */
describe('the database belongs to one subnet on one chain (chain-identity.ts)', () => {
  /** A database of netuid 1 on `genesis` holding a record, its validator stopped. */
  async function storedFor(genesis: string): Promise<{ dir: string; chain: ReturnType<typeof fakeChain> }> {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = fakeChain(k);
    chain.genesis = genesis;
    const service = await startValidator({ config: testConfig(t.dir), chain, logger: silent, autoTick: false });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('r1', k.miners[0]!.address))).status).toBe(201);
    await service.stop();
    return { dir: t.dir, chain };
  }

  it('a start for another netuid is refused, naming both subnets and the setting to change', async () => {
    const { dir, chain } = await storedFor(FINNEY);
    const error = await refusal(dir, 2, chain);
    expect(error?.code).toBe('VALIDATOR_DATABASE_MISMATCH');
    expect(error?.context).toMatchObject({ path: 'netuid', value: 2, recordedNetuid: 1, recordedGenesisHash: FINNEY, genesisHash: FINNEY });
    expect(error?.message).toContain(`this database belongs to netuid 1 on finney (genesis ${FINNEY}), but this start is for netuid 2 on finney`);
    expect(error?.message).toContain('set netuid back to 1');
    // Refused before anything was written: the same database still starts for its own subnet, its record there.
    const service = await startValidator({ config: testConfig(dir), chain, logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    expect(await service.storage.findRecord('bounty', 'r1')).toBeDefined();
  });

  it('a start on another chain (another genesis hash) is refused, naming both', async () => {
    const { dir, chain } = await storedFor(`0x${'11'.repeat(32)}`);
    chain.genesis = `0x${'22'.repeat(32)}`;
    const error = await refusal(dir, 1, chain);
    expect(error?.code).toBe('VALIDATOR_DATABASE_MISMATCH');
    expect(error?.context).toMatchObject({ path: 'chain.endpoint', value: `0x${'22'.repeat(32)}`, recordedGenesisHash: `0x${'11'.repeat(32)}` });
    expect(error?.message).toContain(
      `belongs to netuid 1 on the chain with genesis 0x${'11'.repeat(32)}, but this start is for netuid 1 on the chain with genesis 0x${'22'.repeat(32)}`,
    );
    expect(error?.message).toContain('or chain.endpoint at the chain the database belongs to');
  });

  it('a database written before the identity was recorded takes that of its first start, then holds to it', async () => {
    const { dir, chain } = await storedFor(FINNEY);
    const db = new Database(join(dir, 'validator.sqlite'));
    db.prepare('DELETE FROM chain_identity').run();
    db.close();
    chain.genesis = `0x${'33'.repeat(32)}`;
    expect(await refusal(dir, 1, chain)).toBeUndefined();
    chain.genesis = FINNEY;
    expect((await refusal(dir, 1, chain))?.code).toBe('VALIDATOR_DATABASE_MISMATCH');
  });

  it('a chain access that cannot tell its genesis hash is checked on the netuid alone, and the hash is filled in by the first start that knows it', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const blind = fakeChain(k);
    delete (blind as { genesisHash?: unknown }).genesisHash;
    expect(await refusal(t.dir, 1, blind)).toBeUndefined();
    expect((await refusal(t.dir, 2, blind))?.code).toBe('VALIDATOR_DATABASE_MISMATCH');
    const seeing = fakeChain(k);
    seeing.genesis = FINNEY;
    expect(await refusal(t.dir, 1, seeing)).toBeUndefined();
    seeing.genesis = `0x${'44'.repeat(32)}`;
    expect((await refusal(t.dir, 1, seeing))?.context).toMatchObject({ path: 'chain.endpoint', recordedGenesisHash: FINNEY });
  });
});
