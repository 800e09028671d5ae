import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadSigner } from '@subnet/chain';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { describe, expect, it } from 'vitest';

import { connectSubnetChain } from '../subnet-chain.js';

/** A lock folder as `@subnet/chain` writes it, naming a holder on another host whose heartbeat is fresh now. */
function foreignLock(storePath: string, staleAfterMs: number): void {
  const lockPath = `${storePath}.lock`;
  mkdirSync(lockPath, { recursive: true });
  const file = join(lockPath, `${'cd'.repeat(16)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      pid: 4242,
      host: 'old-container.example',
      boot_id: null,
      start_ticks: null,
      since: '2026-01-01T00:00:00.000Z',
      stale_after_ms: staleAfterMs,
    }),
  );
  const now = new Date();
  utimesSync(file, now, now);
}

function collect(): {
  lines: { level: string; obj: Record<string, unknown>; msg: string }[];
  logger: { warn(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
} {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    logger: {
      warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
      info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    },
  };
}

describe('start: a commit store lock only a heartbeat vouches for (docs/spec.md G.32)', () => {
  it('is waited for once, saying so (COMMIT_STORE_LOCK_WAIT), when it counts as abandoned within the bound; then taken over, and the start goes on', async () => {
    const path = join(tempDir('validator-lock-wait-'), 'commits.json');
    // a crashed container's lock under its old host name, whose heartbeat stopped just now (a 1.5 s bound, as its
    // holder wrote it: the real one is 60 s)
    const signer = await loadSigner({ kind: 'uri', uri: '//Alice' });
    foreignLock(path, 1500);
    const { lines, logger } = collect();
    const started = Date.now();
    // nothing listens there: past the lock, the start stops at the connection, as a start with no chain does
    await expect(
      connectSubnetChain({ endpoint: 'ws://127.0.0.1:1', netuid: 1, signer, wait: 'inBlock', commitStorePath: path, connectTimeoutMs: 300, logger }),
    ).rejects.toMatchObject({ code: 'VALIDATOR_CHAIN_UNAVAILABLE' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const wait = lines.find((l) => l.obj['code'] === 'COMMIT_STORE_LOCK_WAIT');
    expect(wait).toMatchObject({ level: 'warn', obj: { lock_path: `${path}.lock`, holder_pid: 4242, holder_host: 'old-container.example' } });
    // The heartbeat's age is what this machine took from writing the lock to finding it (tens of ms, more under
    // load): the wait is what is left of the 1.5 s bound, and the 1 s margin.
    const age = wait?.obj['heartbeat_age_ms'] as number;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(1500);
    const waitMs = wait?.obj['wait_ms'] as number;
    expect(Math.abs(waitMs - (1500 - age + 1000))).toBeLessThanOrEqual(1); // each rounded to the ms on its own
    const s = (ms: number): string => (ms / 1000).toFixed(1).replace('.', '\\.');
    expect(wait?.msg).toMatch(
      new RegExp(
        `^the commit store ${path} is locked by process 4242 on old-container\\.example, which cannot be checked from here, and its heartbeat is ${s(age)} s old: waiting ${s(waitMs)} s for the lock to count as abandoned`,
      ),
    );
    // taken over, then released by the failed start's close: no lock left
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('is not waited for when it counts as abandoned only after more than 60 s: refused at once, naming the wait', async () => {
    const path = join(tempDir('validator-lock-wait-'), 'commits.json');
    foreignLock(path, 120_000);
    const { lines, logger } = collect();
    const signer = await loadSigner({ kind: 'uri', uri: '//Alice' });
    await expect(
      connectSubnetChain({ endpoint: 'ws://127.0.0.1:1', netuid: 1, signer, wait: 'inBlock', commitStorePath: path, connectTimeoutMs: 300, logger }),
    ).rejects.toMatchObject({
      code: 'CHAIN_COMMIT_STORE_LOCKED',
      message: expect.stringContaining('the lock counts as abandoned once that passes 120.0 s, in 1') as unknown,
    });
    expect(lines).toEqual([]);
    expect(readdirSync(`${path}.lock`)).toEqual([`${'cd'.repeat(16)}.json`]);
  });
});
