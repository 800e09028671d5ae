import type { BundleLimits } from './bundle-limits.js';
import { signatureVerifier } from './signature-verifier.js';
import { auditFile } from './audit-file.js';

/**
 * Worker-process entry of `verify --jobs N` (built as `dist/verify-worker.js`, forked with an IPC channel):
 * receives `{ index, file, limits? }`, answers `{ index, audit }`, exits when the channel closes. Not public API.
 */
if (process.send !== undefined) {
  const verify = await signatureVerifier();
  process.on('message', (message: { index: number; file: string; limits?: BundleLimits }) => {
    void auditFile(message.file, verify, message.limits).then((audit) => {
      process.send?.({ index: message.index, audit });
    });
  });
  process.on('disconnect', () => {
    process.exit(0);
  });
}
