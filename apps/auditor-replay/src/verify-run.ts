import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { SignatureVerifier } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';
import { errorOf, invalidAudit } from './audit-bundle.js';
import { isCommitCall } from './commit-call.js';
import { auditFile } from './audit-file.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import type { AuditReport } from './audit-report.js';
import { buildReport } from './audit-report.js';
import type { ChainWeightsReader } from './chain-weights.js';
import type { CommitFollower } from './reveal-chain.js';
import type { BundleLimits } from './bundle-limits.js';
import { expandOperands } from './load-bundles.js';
import { fileEpoch } from './file-epoch.js';
import type { Progress } from './progress.js';
import { otherValidator } from './validator-hotkey.js';

/** Options of {@link verifyBundles}. */
export interface VerifyOptions {
  readonly verify: SignatureVerifier;
  /** Also compare with the chain: the reader and the subnet (`--chain URL --netuid N`). */
  readonly chain?: { readonly read: ChainWeightsReader; readonly netuid: number; readonly follow?: CommitFollower };
  /** Makes the progress display once the number of bundles is known. */
  readonly progress?: (total: number) => Progress;
  /** Files verified at once: this process and `jobs - 1` worker processes (default 1: this process alone). */
  readonly jobs?: number;
  /** Size limits of each bundle file (default `DEFAULT_BUNDLE_LIMITS`). */
  readonly limits?: BundleLimits;
  /** The validator audited (`--validator-hotkey`): a bundle naming another is invalid (`AUDITOR_WRONG_VALIDATOR`, `otherValidator`). */
  readonly validatorHotkey?: string;
}

/**
 * Verifies every bundle named by the operands (files, or directories of `*.json`): loads each, audits it
 * ({@link auditBundle}), and with `chain` compares the submitted weights with the chain's after the
 * submission block. A bundle that was not submitted (dry run, failed) has nothing on chain to compare:
 * its chain check stays `null`. A chain read that fails (pruned state, unknown block, timeout, lost
 * connection) makes that bundle `invalid` with the coded error; the other bundles are still checked. With
 * `validatorHotkey`, a bundle naming another validator is `invalid` (`AUDITOR_WRONG_VALIDATOR`) and not read on chain.
 *
 * @param operands - files and directories
 * @param options - signature check, optional chain reader, optional progress
 * @returns the report with its exit code
 * @throws SubnetError `AUDITOR_UNREADABLE` when an operand does not exist
 * @example const report = await verifyBundles(['bundles/'], { verify: await signatureVerifier() })
 */
export async function verifyBundles(operands: readonly string[], options: VerifyOptions): Promise<AuditReport> {
  const files = await expandOperands(operands);
  const progress = options.progress?.(files.length);
  const expected = options.validatorHotkey;
  const finish = async (given: BundleAudit): Promise<BundleAudit> => {
    // Before the chain check: another validator's bundle is not read on chain for the one audited.
    // And a file named for another epoch than its bundle's (docs/spec.md G.15).
    const audit = fileEpoch(expected === undefined ? given : otherValidator(given, expected));
    let out = audit;
    // A committed submission (commit-reveal) is not compared: its weights reach `Weights` only at the reveal,
    // and reading them after the submission block would report an honest validator's previous weights.
    const committed = isCommitCall(audit.submission?.call ?? null);
    if (options.chain !== undefined && !committed && audit.status !== 'invalid' && audit.submission_block !== null && audit.validator_hotkey !== null) {
      try {
        const onChain = await options.chain.read(options.chain.netuid, audit.validator_hotkey, audit.submission_block);
        // Loaded only for a chain check: it brings @subnet/chain and @polkadot/api, seconds of start-up.
        const { chainUnknown, compareChainWeights } = await import('./chain-weights.js');
        const found = compareChainWeights(audit, options.chain.netuid, onChain);
        // Weights a registration removed after they were set cannot be compared: unknown, with why (docs/spec.md G.6).
        const unknown = chainUnknown(onChain, options.chain.netuid);
        out = {
          ...audit,
          status: audit.status === 'ok' && found.length === 0 ? 'ok' : 'mismatch',
          checks: { ...audit.checks, chain: unknown !== null && found.length === 0 ? null : found.length === 0 },
          mismatches: [...audit.mismatches, ...found],
          ...(unknown === null ? {} : { chain_unknown: unknown }),
        };
      } catch (error) {
        // A chain that cannot answer for this bundle is invalid input for its chain check (exit 2), with the coded reason.
        if (!isSubnetError(error)) throw error;
        out = { ...audit, status: 'invalid', error: errorOf(error) };
      }
    }
    // A commit-reveal v4 commit is followed to its reveal instead (reveal-chain.ts).
    if (options.chain?.follow !== undefined && committed) out = await followCommit(audit, options.chain.netuid, options.chain.follow);
    progress?.tick(out.source, out.status);
    return Object.freeze(out);
  };
  const jobs = Math.min(options.jobs ?? 1, files.length);
  let audits: BundleAudit[];
  if (jobs > 1) {
    audits = await auditInWorkers(files, jobs, finish, options.verify, options.limits);
  } else {
    audits = [];
    for (const file of files) audits.push(await finish(await auditFile(file, options.verify, options.limits)));
  }
  progress?.done();
  return buildReport(audits, expected === undefined ? {} : { validatorHotkey: expected });
}

/**
 * Starts one verify worker process: the script next to this module (`dist/verify-worker.js` once built),
 * with this process's Node options; from TypeScript source (tests) `src/verify-worker.ts` through tsx with
 * the `source` export condition. Child processes, not worker threads: Node 20 applies no `--import` loader
 * hooks to worker threads, and a bundle verification shares nothing, so processes cost only their start.
 */
function startWorker(): ChildProcess {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(fromSource ? './verify-worker.ts' : './verify-worker.js', import.meta.url));
  const execArgv = fromSource ? ['--conditions=@subnet/source', '--import', 'tsx'] : process.execArgv;
  return fork(script, [], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

/** Files handed to each worker ahead of its answers, so it never waits for the parent between two files. */
const AHEAD = 2;

/**
 * Audits the files on `jobs` verifiers at once, keeping the files' order: this process and `jobs - 1` worker
 * processes (each verifies whole files). This process is one of them because it is loaded and warm already: a
 * worker process costs its start (loading the modules, most of a second of CPU) before its first file. Each
 * worker holds up to {@link AHEAD} files: it starts the next as soon as it answers, while this process reads
 * the answer (between two of its own files) and runs its chain checks.
 */
async function auditInWorkers(
  files: readonly string[],
  jobs: number,
  finish: (audit: BundleAudit) => Promise<BundleAudit>,
  verify: SignatureVerifier,
  limits?: BundleLimits,
): Promise<BundleAudit[]> {
  const results = new Array<BundleAudit | undefined>(files.length);
  let next = 0;
  const workers = Array.from({ length: jobs - 1 }, () => ({ worker: startWorker(), held: { n: 0 } }));
  /** Hands `worker` files until it holds `upTo` (or none are left); returns whether it holds any. */
  const top = ({ worker, held }: { worker: ChildProcess; held: { n: number } }, upTo: number): boolean => {
    while (held.n < upTo && next < files.length) {
      const index = next++;
      held.n++;
      worker.send({ index, file: files[index], limits });
    }
    return held.n > 0;
  };
  try {
    // One file each first (this process claims its first one synchronously, before its first await), then
    // the files ahead: a short list is spread over every verifier.
    for (const slot of workers) top(slot, 1);
    const here = (async () => {
      while (next < files.length) {
        const index = next++;
        results[index] = await finish(await auditFile(files[index] ?? '', verify, limits));
        // An audit may finish without yielding to the event loop (a published file is read and checked
        // synchronously): yield, so the workers' answers are read and they are handed their next files.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (const slot of workers) top(slot, AHEAD);
    await Promise.all([
      here,
      ...workers.map(
        (slot) =>
          new Promise<void>((resolve, reject) => {
            const { worker, held } = slot;
            /** Answers whose chain checks have not finished. */
            let finishing = 0;
            const settle = () => {
              if (!top(slot, AHEAD) && finishing === 0) resolve();
            };
            worker.on('message', (message: { index: number; audit: BundleAudit }) => {
              held.n--;
              finishing++;
              settle();
              finish(message.audit).then((audit) => {
                results[message.index] = audit;
                finishing--;
                settle();
              }, reject);
            });
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (held.n > 0) reject(new Error(`a verify worker exited with code ${String(code)} before answering`));
            });
            settle();
          }),
      ),
    ]);
  } finally {
    for (const { worker } of workers) worker.kill();
  }
  return results.map((audit, i) => audit ?? invalidMissing(files[i] ?? ''));
}

function invalidMissing(file: string): BundleAudit {
  return invalidAudit(file, { code: AUDITOR_ERROR_CODES.unreadable, message: `no result for ${file}`, path: null });
}

/**
 * Follows a committed bundle's commit to its reveal and judges it (reveal-chain.ts); a chain that cannot answer makes
 * the bundle invalid with the coded reason, as for any chain read.
 */
async function followCommit(audit: BundleAudit, netuid: number, follow: CommitFollower): Promise<BundleAudit> {
  const s = audit.submission;
  if (audit.status === 'invalid' || audit.submission_block === null || audit.validator_hotkey === null || s === null) return audit;
  if (!/commit_timelocked_/.test(s.call ?? '')) return audit;
  try {
    const followed = await follow({
      netuid,
      hotkey: audit.validator_hotkey,
      commitBlock: audit.submission_block,
      extrinsicHash: s.extrinsic_hash ?? null,
      hint: audit.reveal?.verified === true ? (audit.reveal.attestation?.reveal_block ?? null) : null,
    });
    const { judgeReveal } = await import('./reveal-chain.js');
    return judgeReveal(audit, netuid, followed);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const path = (error.context as { path?: unknown }).path;
    return { ...audit, status: 'invalid', error: { code: error.code, message: error.message, path: typeof path === 'string' ? path : null } };
  }
}
