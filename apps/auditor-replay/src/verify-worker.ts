import type { BundleLimits } from './bundle-limits.js';
import { signatureVerifier } from './signature-verifier.js';
import { auditFile } from './audit-file.js';

interface Job {
  readonly index: number;
  readonly file: string;
  readonly limits?: BundleLimits;
}

/**
 * Worker-process entry of `verify --jobs N` (built as `dist/verify-worker.js`, forked with an IPC channel):
 * receives `{ index, file, limits? }`, answers `{ index, audit }`, exits when the channel closes. The parent may
 * send the next file before this one is answered; files are audited one at a time, in the order received, so a
 * worker never holds two bundles in memory. Not public API.
 */
if (process.send !== undefined) {
  const verify = await signatureVerifier();
  const queue: Job[] = [];
  let running = false;
  const drain = async (): Promise<void> => {
    running = true;
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const audit = await auditFile(job.file, verify, job.limits);
      process.send?.({ index: job.index, audit });
      // An audit may finish without yielding to the event loop (a published file is read and checked
      // synchronously): yield, so the answer is written out and the parent's next files are received.
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  };
  process.on('message', (message: Job) => {
    queue.push(message);
    if (!running) void drain();
  });
  process.on('disconnect', () => {
    process.exit(0);
  });
}
