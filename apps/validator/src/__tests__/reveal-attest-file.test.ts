import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { signRevealAttestation, withRevealAttestation } from '@subnet/bundle';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writtenAttestation } from '../reveal-attest.js';
import type { EpochRow } from '../storage.js';
import { tempDir, useKeys } from './helpers.js';

/**
 * `writtenAttestation` looks for an attestation a crashed pass wrote into `bundles.dir/epoch-<n>.json`. It runs on the
 * service's event loop, so what sits under that name must not hold it: the file is opened without blocking and
 * checked on its own descriptor before the epoch's row is read. Real files, folders and FIFOs in a temporary folder.
 */

const k = useKeys();
let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  t.cleanup();
});

const DIGEST = `0x${'ab'.repeat(32)}`;

/**
 * A `whole` that counts its calls (it reads the epoch's megabyte bundle from storage: only for a regular file) and
 * gives a row whose bundle names its epoch, netuid, hotkey, digest and a signature, so the file is then read.
 */
function counted(epoch: number): { whole: () => Promise<EpochRow | undefined>; calls: () => number } {
  let calls = 0;
  const bundle = JSON.stringify({ bundle: { netuid: 1, epoch, validator_hotkey: '5F' }, digest: DIGEST, signature: `0x${'cd'.repeat(64)}` });
  return {
    whole: () => {
      calls++;
      return Promise.resolve({ epoch, bundle, digest: DIGEST } as unknown as EpochRow);
    },
    calls: () => calls,
  };
}

describe('writtenAttestation reads only a regular file, without blocking', () => {
  it('a FIFO under the epoch file name is passed over at once, not read when a writer comes seconds later', async () => {
    const pipe = join(t.dir, 'epoch-3.json');
    execFileSync('mkfifo', [pipe]);
    // A writer that opens the FIFO three seconds from now: a blocking read would wait for it (and the loop with it).
    const writer = spawn('sh', ['-c', `sleep 3; printf '{}' > '${pipe}'`], { stdio: 'ignore' });
    try {
      const count = counted(3);
      const started = Date.now();
      expect(await writtenAttestation(t.dir, { epoch: 3 }, count.whole)).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(count.calls()).toBe(0);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('a folder under the epoch file name is passed over without reading the epoch row', async () => {
    mkdirSync(join(t.dir, 'epoch-4.json'));
    const count = counted(4);
    expect(await writtenAttestation(t.dir, { epoch: 4 }, count.whole)).toBeUndefined();
    expect(count.calls()).toBe(0);
  });

  it('a storage failure reading the epoch row fails the call (and the pass), not taken for "no attestation"; the file is closed', async () => {
    // Taken for "no attestation", the pass would ask the chain and write a second signed outcome over this file's.
    const file = join(t.dir, 'epoch-6.json');
    writeFileSync(file, '{"bundle":{}}\n');
    // The descriptors open on this file (Linux names each one's file in /proc/self/fd). Not a count of all of them:
    // the test files of this worker share the process, and their sockets open and close meanwhile.
    const onFile = (): string[] =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false; // closed since the listing
        }
      });
    let during: string[] = [];
    const down = new Error('SQLITE_BUSY: database is locked');
    await expect(
      writtenAttestation(t.dir, { epoch: 6 }, () => {
        during = onFile();
        return Promise.reject(down);
      }),
    ).rejects.toBe(down);
    expect(during).toHaveLength(1); // open while the row is read: the check sees it
    expect(onFile()).toEqual([]);
  });

  it('finds a written attestation as large as the schema allows; the same document grown past the bundle and 64 KiB is not read', async () => {
    const digest = 'ab'.repeat(32);
    const bundle = `{"bundle":{"epoch":8,"netuid":1,"validator_hotkey":"${k.validator.address}"},"digest":"${digest}","signature":"0x${'cd'.repeat(64)}"}`;
    const row = { epoch: 8, bundle, digest } as unknown as EpochRow;
    const token = 'A'.repeat(128);
    const big = '9'.repeat(20);
    // Every field at its bound; a control character is six bytes in JSON (\u0001), the longest a message character gets.
    const attested = signRevealAttestation(
      {
        kind: 'reveal_attestation',
        netuid: 1,
        epoch: 8,
        validator_hotkey: k.validator.address,
        bundle_digest: digest,
        status: 'not_revealed',
        code: token,
        reason: token,
        reasons: Array.from({ length: 16 }, () => token),
        message: '\u0001'.repeat(1024),
        commit_hash: `0x${'ee'.repeat(32)}`,
        commit_block: big,
        commit_extrinsic_hash: `0x${'ef'.repeat(32)}`,
        reveal_round: big,
        due_block: big,
        reveal_block: big,
        reveal_block_hash: `0x${'cd'.repeat(32)}`,
        confirmed_at_head: big,
      },
      k.validator,
    );
    const text = withRevealAttestation(bundle, attested);
    const file = join(t.dir, 'epoch-8.json');
    writeFileSync(file, `${text}\n`);
    expect(await writtenAttestation(t.dir, { epoch: 8 }, () => Promise.resolve(row))).toEqual(attested);
    // Still valid JSON with the spaces, but longer than the bundle's text and 64 KiB: not ours, not read.
    writeFileSync(file, `${text}${' '.repeat(64 * 1024)}\n`);
    expect(await writtenAttestation(t.dir, { epoch: 8 }, () => Promise.resolve(row))).toBeUndefined();
  });

  it('no file: the epoch row is not read either', async () => {
    const count = counted(5);
    expect(await writtenAttestation(t.dir, { epoch: 5 }, count.whole)).toBeUndefined();
    expect(count.calls()).toBe(0);
  });
});
