import { Writable } from 'node:stream';

import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { startValidator } from '../service.js';
import { fakeChain, tempDir, testConfig, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

/**
 * A subnet whose tempo changes while the validator runs (the owner's `set_tempo`, root's `sudo_set_tempo`): with
 * `chain.epoch_length` unset the validator took its epoch length from the tempo at every metagraph read, so its epoch
 * numbers (⌊block / length⌋, stored with every record and epoch row) jumped: a shorter tempo skipped epochs whose
 * records were never closed, a longer one sent the numbers back below the current epoch and nothing closed until they
 * caught up. The length read first is kept until a restart, with a warning that says how to keep it across one.
 */
describe('the subnet tempo changes while the validator runs (chain.epoch_length unset)', () => {
  it('the epoch length read first is kept, and TEMPO_CHANGED says the new tempo and how to keep the numbering', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = testConfig(t.dir, { chain: { poll_ms: 20, commit_store: `${t.dir}/commits.json` } });
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      }),
    );
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
    expect(warning?.msg).toContain('set chain.epoch_length to 10');
    // Said once, not at every read.
    chain.headBlock = 22n;
    await service.tick();
    expect(lines.filter((l) => l.code === 'TEMPO_CHANGED')).toHaveLength(1);
    expect(service.currentEpoch()).toBe(2);
  });
});
