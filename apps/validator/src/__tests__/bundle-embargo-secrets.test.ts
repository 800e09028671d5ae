import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import { fakeChain, silent, tempDir, testConfig, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

/** What a start with `overrides` threw (undefined: it started, and is stopped by the cleanups). */
async function startError(dir: string, overrides: Record<string, unknown>): Promise<unknown> {
  try {
    const service = await startValidator({ config: testConfig(dir, overrides), chain: fakeChain(k), logger: silent, autoTick: false });
    cleanups.push(() => service.stop());
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('bundles.dir holds no secret state (docs/spec.md G.23; real files)', () => {
  it('a commit store or a SQLite database inside bundles.dir stops the start with VALIDATOR_INVALID_CONFIG at its key; beside it, the start goes on', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const chain = { epoch_length: 10, poll_ms: 20 };
    const store = await startError(t.dir, { chain: { ...chain, commit_store: join(t.dir, 'bundles', 'commits.json') } });
    expect(isSubnetError(store, 'VALIDATOR_INVALID_CONFIG')).toBe(true);
    expect((store as { context: Record<string, unknown> }).context).toMatchObject({
      path: 'chain.commit_store',
      value: join(t.dir, 'bundles', 'commits.json'),
    });
    expect((store as Error).message).toContain(
      `chain.commit_store ${join(t.dir, 'bundles', 'commits.json')} is inside bundles.dir ${join(t.dir, 'bundles')}, the folder published as it is written: it holds the commit-reveal v2 commits' weights and salts until their reveal`,
    );
    // Refused before anything is created: no bundles folder, no database.
    expect(existsSync(join(t.dir, 'bundles'))).toBe(false);
    // Spelled with a detour (`bundles/../bundles/sub`), it is still inside.
    const database = await startError(t.dir, {
      chain: { ...chain, commit_store: join(t.dir, 'commits.json') },
      database: { path: `${join(t.dir, 'bundles')}/../bundles/sub/v.sqlite` },
    });
    expect(isSubnetError(database, 'VALIDATOR_INVALID_CONFIG')).toBe(true);
    expect((database as { context: Record<string, unknown> }).context).toMatchObject({ path: 'database.path' });
    // A sibling whose name starts like the folder's (`bundles-state/`) is outside it.
    expect(await startError(t.dir, { chain: { ...chain, commit_store: join(t.dir, 'bundles-state', 'commits.json') } })).toBeUndefined();
  });
});
