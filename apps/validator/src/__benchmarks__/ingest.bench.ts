import { cpus } from 'node:os';
import { join } from 'node:path';

import { formatKb, peakRssKb } from '@subnet/bench-peer';
import { bench, describe } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import { keys, startChildValidator, tempDir, TOKEN } from '../__tests__/helpers.js';
import { runLoad } from './load.js';

const SECONDS = Number(process.env.VALIDATOR_BENCH_SECONDS ?? 30);

describe(`ingest over HTTP on 127.0.0.1, ${SECONDS} s sustained (SQLite, WAL, synchronous=FULL)`, () => {
  bench(
    `POST /v1/bounty-records for ${SECONDS} s`,
    async () => {
      const k = await keys();
      const t = tempDir();
      const validator = await startChildValidator(t.dir, 90_000, 'inherit');
      try {
        await runLoad(
          validator.url,
          k.miners.map((m) => m.address),
          TOKEN,
          1,
        ); // warm-up
        const result = await runLoad(
          validator.url,
          k.miners.map((m) => m.address),
          TOKEN,
          SECONDS,
        );
        // The validator process's own peak resident set under the load (Linux /proc; n/a elsewhere).
        const peakKb = validator.proc.pid === undefined ? null : peakRssKb(validator.proc.pid);
        validator.proc.kill('SIGTERM');
        await validator.exited;
        const storage = openSqliteStorage(join(t.dir, 'validator.sqlite'));
        let lost = 0;
        for (const id of result.acknowledged) if ((await storage.findRecord('bounty', id)) === undefined) lost++;
        await storage.close();
        const rate = result.acknowledged.length / result.seconds;
        const full = result.perSecond.slice(0, Math.floor(result.seconds));
        const lines = [
          '',
          `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`,
          `| acknowledged | seconds | ingests/s | slowest second | fastest second | rejected | errors | lost | validator peak RSS |`,
          `| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
          `| ${result.acknowledged.length} | ${result.seconds.toFixed(1)} | ${rate.toFixed(0)} | ${Math.min(...full)} | ${Math.max(...full)} | ${result.rejected} | ${result.errors} | ${lost} | ${formatKb(peakKb)} |`,
          `target >= 2000 ingests/s sustained, nothing lost: ${rate >= 2000 && lost === 0 ? 'MET' : 'NOT MET'}`,
          '',
        ];
        process.stdout.write(lines.join('\n'));
      } finally {
        if (validator.proc.exitCode === null) validator.proc.kill('SIGKILL');
        t.cleanup();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
