import { createRequire } from 'node:module';
import { join } from 'node:path';

import { Command, CommanderError, InvalidArgumentError } from 'commander';

import { integerFlagValue, usageCause } from '@subnet/cli-support';
import { describeValue, isHotkey, isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import { formatReport } from './audit-report.js';
import type { BundleLimits } from './bundle-limits.js';
import { BUNDLE_LIMIT_OPTIONS, DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { checkChainEndpoint } from './chain-endpoint.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { checkEpochRange, DEFAULT_TOTAL_TIMEOUT_MS, fetchBundles, MAX_FETCH_EPOCHS, refusedSentence } from './fetch-bundles.js';
import type { FetchedEpoch } from './fetch-bundles.js';
import { loadBundles } from './load-bundles.js';
import { renderHtmlReport } from './pages/html-report.js';
import type { ProgressStream } from './progress.js';
import { createProgress } from './progress.js';
import { besideSentence } from './save-bundle.js';
import { signatureVerifier } from './signature-verifier.js';
import { MAX_REQUEST_TIMEOUT_MS, MAX_TOTAL_TIMEOUT_MS } from './validator-http.js';
import { verifyBundles } from './verify-run.js';
import { checkReportPath, writeReport } from './write-report.js';

/** Where the CLI writes: stdout for the report, stderr for progress and errors. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: ProgressStream;
}

/**
 * An integer flag's parser: decimal digits only (`integerFlagValue` of `@subnet/cli-support`, the rule of every CLI), so
 * `1e3`, `0x10`, ` 5`, `3.0` and `-0` are refused with what is wrong and the spelling to write, naming the flag and the
 * value as given.
 */
function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const read = integerFlagValue(value, min, max);
    if (!read.ok) {
      const given = `got ${JSON.stringify(value)}`;
      throw new InvalidArgumentError(
        read.outOfRange
          ? `${name} must be an integer in [${min}, ${max}], ${given}`
          : `${name} must be an integer in [${min}, ${max}] in decimal digits, ${given}, which ${read.problem}`,
      );
    }
    return read.value;
  };
}

function hotkey(name: string) {
  return (value: string): string => {
    if (!isHotkey(value)) throw new InvalidArgumentError(`${name} must be an SS58 hotkey, got ${JSON.stringify(value)}`);
    return value;
  };
}

/** The size-limit flags of `verify`, parsed. */
interface LimitOptions {
  maxBundleBytes?: number;
  maxDepth?: number;
  maxListLength?: number;
  maxStringLength?: number;
  maxObjectKeys?: number;
}

function bundleLimits(opts: LimitOptions): BundleLimits {
  const d = DEFAULT_BUNDLE_LIMITS;
  return Object.freeze({
    maxBytes: opts.maxBundleBytes ?? d.maxBytes,
    maxDepth: opts.maxDepth ?? d.maxDepth,
    maxListLength: opts.maxListLength ?? d.maxListLength,
    maxStringLength: opts.maxStringLength ?? d.maxStringLength,
    maxObjectKeys: opts.maxObjectKeys ?? d.maxObjectKeys,
  });
}

const VERIFY_HELP = `
Checks, for each bundle: schema, digest (sha256 of the canonical JSON), the validator's sr25519
signature, and that @subnet/bundle's computeEpoch recomputes every intermediate and final value exactly.

Text output, per bundle that is not ok: the verdict of each check, the root cause first (the earliest
value the recomputation does not reproduce, and the configuration value or input record behind it),
then "N downstream values follow" (--max-lines of them; every one with --all or --json). Two different
signed bundles of one validator for one (netuid, epoch) are reported as an equivocation.

The summary table's validator column shows the hotkey each bundle names (signed by it when its signature
is ok) in short, and one line per validator gives the full hotkey and its counts. A signature proves which
hotkey signed, not that it is the validator you audit: a validator can serve another's honestly signed
bundles. Pass --validator-hotkey to make every bundle of another validator invalid (AUDITOR_WRONG_VALIDATOR).

A commit-reveal v4 bundle served after its reveal carries the validator's signed reveal outcome: it is
verified and printed ("REVEAL epoch N ...: revealed in block B", or the drop with its code and reason). With
--chain such a commit is followed to its reveal block, and the chain's TimelockedWeightsRevealed and Weights
there are compared with the bundle and the signed outcome.

Exit codes: 0 every bundle matches; 1 at least one mismatch or equivocation; 2 invalid input (unreadable
file, malformed JSON, not a bundle, bad option, a chain that cannot answer: e.g. AUDITOR_CHAIN_STATE_PRUNED
when the node pruned the submission block's state and an archive endpoint is needed, or a bundle of another
validator than --validator-hotkey: AUDITOR_WRONG_VALIDATOR; a --report that cannot be written: AUDITOR_WRITE_FAILED,
checked before the run; a wrong command line: AUDITOR_INVALID_OPTION).
2 wins over 1; 141 the reader closed the output early (EPIPE, as \`| head\` does), ended quietly; 130 stopped
by Ctrl-C (SIGINT ends the run at once: no verdict, no --report; 143 for SIGTERM).

Examples:
  $ auditor-replay verify bundles/
  $ auditor-replay verify epoch-41.json epoch-42.json --json
  $ auditor-replay verify bundles/ --report audit.html
  $ auditor-replay verify bundles/ --jobs 2
  $ auditor-replay verify bundles/ --validator-hotkey 5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY
  $ auditor-replay verify bundles/ --chain ws://127.0.0.1:9944 --netuid 1
`;

const FETCH_HELP = `
Downloads GET {validator}/v1/epochs/{n}/bundle for every epoch n in [from, to] (at most ${MAX_FETCH_EPOCHS}
epochs) into DIR/epoch-<n>.json. Timeouts, network errors, 408, 429 and 5xx are retried with exponential
backoff (250 ms doubled, at most 30 s); 404 means no bundle.
The validator is not trusted: redirects are not followed, each request ends at --timeout and the whole
download at --total-timeout, an answer over --max-bundle-bytes (default ${DEFAULT_BUNDLE_LIMITS.maxBytes}, at most
${BUNDLE_LIMIT_OPTIONS.maxBytes.most}) is refused while it is read (AUDITOR_FETCH_FAILED, saying how to raise it:
verify the files with the same --max-bundle-bytes), and a file in DIR is never overwritten: other bytes for a saved epoch go
beside it as DIR/epoch-<n>.<sha256>.json, for verify to judge (two different signed bundles of
one epoch are an equivocation). A signature proves who signed, not that it is the validator you audit:
pass --validator-hotkey to refuse the bundles of another (AUDITOR_WRONG_VALIDATOR).

Each epoch not saved is printed with its code: AUDITOR_FETCH_FAILED (the network or the validator),
AUDITOR_MALFORMED_JSON, AUDITOR_WRONG_EPOCH, AUDITOR_WRONG_VALIDATOR, AUDITOR_BUNDLE_EMBARGOED or
AUDITOR_NAME_CONFLICT (both file names of the epoch in DIR already hold other bytes: look in DIR, the
message names both paths) (--json: "code" per epoch).
A local disk error (AUDITOR_WRITE_FAILED: EACCES, ENOSPC, EROFS, a folder under a bundle's name...) stops
the run at once, naming the path and the OS code; files already written are kept as they are.

No validator at a --validator URL (the connection refused, or the host does not resolve, at the first epoch
after its retries) stops that source at once: "the validator at URL refused the connection (is it running? is
the URL right?)", the later epochs not asked (--json: "refused" of the source), exit 2. A validator that answers,
with any status, or that goes away after the first epoch is asked for every epoch.

Exit codes: 0 every epoch saved (or embargoed); 1 some epoch not found or failed; 2 invalid option
(AUDITOR_INVALID_OPTION: e.g. a range of more than ${MAX_FETCH_EPOCHS} epochs, an unknown option, a missing
--out), AUDITOR_WRITE_FAILED, or no validator at a --validator URL (above); 141 the reader closed the output
early (EPIPE, as \`| head\` does); 130 stopped by Ctrl-C (SIGINT ends the run at once, a bundle file being
written removed; 143 for SIGTERM).

With several --validator URLs (the validator's API and mirrors or archives of its bundles), each
source goes to DIR/source-<i>/; verifying those folders together reports any equivocation.

Example:
  $ auditor-replay fetch --validator http://127.0.0.1:8091 --from 10 --to 20 --out bundles/
  $ auditor-replay verify bundles/
  $ auditor-replay fetch --validator http://a.example:8091 --validator http://b.example:8091 --from 10 --to 20 --out seen/
  $ auditor-replay verify seen/source-1 seen/source-2
`;

/** One epoch's outcome in `fetch --json` (snake_case, as every wire document). */
function epochJson(r: FetchedEpoch) {
  return {
    epoch: r.epoch,
    status: r.status,
    code: r.code,
    file: r.file,
    attempts: r.attempts,
    error: r.error,
    validator_hotkey: r.validatorHotkey ?? null,
    beside: r.beside === undefined ? null : { file: r.beside.file, same_digest: r.beside.sameDigest },
    embargo:
      r.embargo === undefined
        ? null
        : {
            reveal_block: r.embargo.revealBlock,
            reveal_round: r.embargo.revealRound,
            retry_after_seconds: r.embargo.retryAfterSeconds,
            retry_at: r.embargo.retryAt,
          },
  };
}

/**
 * Runs the auditor CLI: `verify BUNDLE...` and `fetch`. Never calls `process.exit`; returns the exit code.
 *
 * @param argv - the arguments after the program name (`['verify', 'bundles/', '--json']`)
 * @param io - stdout and stderr
 * @returns 0, 1 or 2 (see `--help`)
 * @example process.exitCode = await runCli(process.argv.slice(2), process)
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = new Command('auditor-replay')
    .description("Anyone can check a validator's weights: verify signed audit bundles (SPEC E) by recomputing every value.")
    .version(VERSION, '-V, --version', 'print the version and exit')
    .exitOverride()
    // A parse error is written by the catch below, with its code (text, and JSON with --json), not by commander.
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => undefined })
    .addHelpText(
      'after',
      '\nExit codes: 0 ok; 1 a mismatch or equivocation (verify), an epoch not saved (fetch); 2 invalid input (fetch: also no ' +
        'validator at a --validator URL, the connection refused), or a wrong ' +
        'command line (AUDITOR_INVALID_OPTION: an unknown command or option, a missing argument, a value out of range); ' +
        '141 the reader closed the output early (EPIPE, as `| head` does); 130 stopped by Ctrl-C (SIGINT ends a run at once; 143 for SIGTERM).\n' +
        '\nExamples:\n  $ auditor-replay fetch --validator http://127.0.0.1:8091 --from 1 --to 50 --out bundles/\n  $ auditor-replay verify bundles/ --report audit.html\n',
    );

  program
    .command('verify')
    .description('verify audit bundles: digest, signature, recomputation, and optionally the weights on chain')
    .argument('<bundle...>', 'bundle files or directories of *.json bundles')
    .option('--json', 'print the whole report as one JSON object on stdout (no progress)')
    .option('--report <file.html>', 'also write a self-contained HTML report (checks per bundle, root causes, weights chart, a page per miner)')
    .option(
      '--chain <url>',
      'ws:// or wss:// endpoint (or finney, test, local): also compare with the weights on chain after the submission block (a v4 commit: at its reveal block)',
    )
    .option('--netuid <n>', 'the subnet (required with --chain)', integer('--netuid', 0, 65535))
    .option('--chain-timeout <ms>', 'chain connection and request timeout', integer('--chain-timeout', 1, 3_600_000), 30_000)
    .option(
      '--jobs <n>',
      'files verified at once: this process and N-1 worker processes (use the number of cores for large directories)',
      integer('--jobs', 1, 256),
      1,
    )
    .option(
      '--validator-hotkey <ss58>',
      'the validator audited: a bundle of another validator is invalid (AUDITOR_WRONG_VALIDATOR, exit 2)',
      hotkey('--validator-hotkey'),
    )
    .option('--max-lines <n>', 'downstream mismatch lines printed per bundle in text output', integer('--max-lines', 0, 1_000_000), 20)
    .option('--all', 'print every downstream mismatch line (no --max-lines limit)')
    .option('--max-bundle-bytes <n>', 'largest bundle file in bytes (default 67108864)', integer('--max-bundle-bytes', 1, BUNDLE_LIMIT_OPTIONS.maxBytes.most))
    .option('--max-depth <n>', 'deepest nesting of a bundle document (default and most: 128)', integer('--max-depth', 1, BUNDLE_LIMIT_OPTIONS.maxDepth.most))
    .option('--max-list-length <n>', 'most elements of one list (default 100000)', integer('--max-list-length', 1, BUNDLE_LIMIT_OPTIONS.maxListLength.most))
    .option(
      '--max-string-length <n>',
      'most UTF-16 code units of one string or key (default 1048576)',
      integer('--max-string-length', 1, BUNDLE_LIMIT_OPTIONS.maxStringLength.most),
    )
    .option('--max-object-keys <n>', 'most keys of one object (default 10000)', integer('--max-object-keys', 1, BUNDLE_LIMIT_OPTIONS.maxObjectKeys.most))
    .addHelpText('after', VERIFY_HELP)
    .action(
      async (
        operands: string[],
        opts: {
          json?: boolean;
          report?: string;
          chain?: string;
          netuid?: number;
          chainTimeout: number;
          maxLines: number;
          all?: boolean;
          jobs: number;
          validatorHotkey?: string;
        } & LimitOptions,
      ) => {
        // Before anything else: a --chain that is not a ws(s):// URL (an http:// one, say) is the command line's mistake.
        if (opts.chain !== undefined) checkChainEndpoint(opts.chain);
        if (opts.chain !== undefined && opts.netuid === undefined) {
          throw invalidOption(`--chain ${redactUrl(opts.chain)} needs --netuid <n>, the subnet (an integer from 0 to 65535)`, '--netuid');
        }
        if (opts.chain === undefined && opts.netuid !== undefined) {
          throw invalidOption(`--netuid ${opts.netuid} needs --chain <url>, the chain's ws:// or wss:// endpoint`, '--chain');
        }
        // A report that cannot be written is refused before the run, not after it.
        if (opts.report !== undefined) await checkReportPath(opts.report);
        const verify = await signatureVerifier();
        const chain = opts.chain === undefined ? undefined : await (await import('./chain-weights.js')).openChainReader(opts.chain, opts.chainTimeout);
        try {
          const report = await verifyBundles(operands, {
            verify,
            ...(chain === undefined || opts.netuid === undefined ? {} : { chain: { read: chain.read, netuid: opts.netuid, follow: chain.follow } }),
            progress: (total) => createProgress(io.stderr, total, 'verify', opts.json !== true),
            jobs: opts.jobs,
            limits: bundleLimits(opts),
            ...(opts.validatorHotkey === undefined ? {} : { validatorHotkey: opts.validatorHotkey }),
          });
          if (opts.report !== undefined) {
            const bundles = await loadBundles(report.bundles.filter((a) => a.weights !== null).map((a) => a.source));
            await writeReport(opts.report, renderHtmlReport(report, { bundles }));
          }
          io.stdout.write(
            opts.json === true ? `${JSON.stringify(report)}\n` : `${formatReport(report, opts.all === true ? Number.POSITIVE_INFINITY : opts.maxLines)}\n`,
          );
          code = report.exit_code;
        } finally {
          await chain?.close();
        }
      },
    );

  program
    .command('fetch')
    .description("download signed bundles from a validator's API (several --validator: one folder per source, to find equivocations)")
    .requiredOption('--validator <url...>', 'the validator base URL, e.g. http://127.0.0.1:8091; repeat it for several sources (mirrors, archives)')
    .requiredOption('--from <epoch>', 'first epoch', integer('--from', 0, Number.MAX_SAFE_INTEGER))
    .requiredOption('--to <epoch>', 'last epoch (inclusive)', integer('--to', 0, Number.MAX_SAFE_INTEGER))
    .requiredOption('--out <dir>', 'directory to write epoch-<n>.json into (several sources: DIR/source-<i>/)')
    .option('--timeout <ms>', 'per-request timeout (the answer and its whole body)', integer('--timeout', 1, MAX_REQUEST_TIMEOUT_MS), 10_000)
    .option(
      '--total-timeout <ms>',
      "one source's whole download (every epoch, retry and wait); past it no epoch is asked for",
      integer('--total-timeout', 1, MAX_TOTAL_TIMEOUT_MS),
      DEFAULT_TOTAL_TIMEOUT_MS,
    )
    .option('--retries <n>', 'retries per epoch', integer('--retries', 0, 100), 3)
    .option(
      '--max-bundle-bytes <n>',
      `largest answer in bytes, refused while it is read (default ${DEFAULT_BUNDLE_LIMITS.maxBytes}, at most ${BUNDLE_LIMIT_OPTIONS.maxBytes.most}; verify the files with the same value)`,
      integer('--max-bundle-bytes', 1, BUNDLE_LIMIT_OPTIONS.maxBytes.most),
    )
    .option(
      '--validator-hotkey <ss58>',
      "the validator's hotkey: a bundle naming another validator is refused, not saved (AUDITOR_WRONG_VALIDATOR)",
      hotkey('--validator-hotkey'),
    )
    .option('--json', "print every epoch's outcome as one JSON object on stdout (no progress)")
    .option('--quiet', 'no progress on stderr')
    .addHelpText('after', FETCH_HELP)
    .action(
      async (opts: {
        validator: string[];
        from: number;
        to: number;
        out: string;
        timeout: number;
        totalTimeout: number;
        retries: number;
        maxBundleBytes?: number;
        validatorHotkey?: string;
        json?: boolean;
        quiet?: boolean;
      }) => {
        // Before any request or folder: a range too large (or backwards) is refused with both flags named.
        checkEpochRange(opts.from, opts.to);
        const notHttp = opts.validator.find((v) => !/^https?:\/\//.test(v));
        if (notHttp !== undefined) {
          throw invalidOption(
            `--validator ${describeValue(redactUrl(notHttp))} is not allowed: a validator URL starts with http:// or https://`,
            '--validator',
          );
        }
        const several = opts.validator.length > 1;
        let saved = 0;
        /** The validator hotkeys the saved bundles name, with how many: a signature proves a hotkey, not that it is the one audited. */
        const named = new Map<string, number>();
        let embargoed = 0;
        let total = 0;
        const folders: string[] = [];
        const json = opts.json === true;
        /** Whether a source had no validator at its first epoch (connection refused, host unknown): the run stopped there. */
        let refusedAny = false;
        const sources: { validator: string; out: string; refused: string | null; epochs: ReturnType<typeof epochJson>[] }[] = [];
        for (const [i, validator] of opts.validator.entries()) {
          const outDir = several ? join(opts.out, `source-${i + 1}`) : opts.out;
          folders.push(outDir);
          if (several && !json) io.stdout.write(`source-${i + 1}: ${redactUrl(validator)} -> ${outDir}\n`);
          const results = await fetchBundles({
            validator,
            from: opts.from,
            to: opts.to,
            outDir,
            timeoutMs: opts.timeout,
            totalTimeoutMs: opts.totalTimeout,
            retries: opts.retries,
            maxBytes: opts.maxBundleBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
            ...(opts.validatorHotkey === undefined ? {} : { validatorHotkey: opts.validatorHotkey }),
            progress: createProgress(io.stderr, opts.to - opts.from + 1, 'fetch', opts.quiet !== true && !json),
          });
          const refusal = results[0]?.refused;
          const refused = refusal === undefined ? null : refusedSentence(validator, refusal);
          if (refused !== null) refusedAny = true;
          sources.push({ validator: redactUrl(validator), out: outDir, refused, epochs: results.map(epochJson) });
          saved += results.filter((r) => r.status === 'saved').length;
          for (const r of results) if (r.status === 'saved') named.set(r.validatorHotkey ?? '(none)', (named.get(r.validatorHotkey ?? '(none)') ?? 0) + 1);
          embargoed += results.filter((r) => r.status === 'embargoed').length;
          total += results.length;
          if (json) continue;
          for (const r of results) {
            const who = `${several ? `source-${i + 1} ` : ''}epoch ${r.epoch}`;
            // The epochs not asked after a refusal are said once, below.
            if (refused !== null && r.attempts === 0) continue;
            if (r.status !== 'saved') io.stdout.write(`${who}: ${r.status}: ${r.code === null ? '' : `[${r.code}] `}${r.error ?? ''}\n`);
            // Never overwritten: other bytes for an epoch already in the folder are kept beside it, for verify to judge.
            else if (r.beside !== undefined) io.stdout.write(`${who}: saved as ${r.file ?? ''}: ${besideSentence(r.beside)}\n`);
          }
          if (refused !== null) {
            const notAsked = results.length - 1;
            const range = notAsked === 0 ? '' : `; so fetch stopped: ${notAsked === 1 ? `epoch ${opts.to}` : `epochs ${opts.from + 1}-${opts.to}`} not asked`;
            io.stdout.write(`${several ? `source-${i + 1}: ` : ''}${refused}${range}\n`);
          }
        }
        // An embargoed bundle is not a failure: the validator withholds it until the chain's reveal. No validator at
        // all at a --validator URL (refused at the first epoch) is the command line's or the environment's problem: 2.
        code = refusedAny ? 2 : saved + embargoed === total ? 0 : 1;
        if (json) {
          const validatorHotkeys = [...named].map(([h, n]) => ({ validator_hotkey: h, bundles: n }));
          io.stdout.write(`${JSON.stringify({ exit_code: code, saved, embargoed, total, validator_hotkeys: validatorHotkeys, sources })}\n`);
          return;
        }
        io.stdout.write(
          `${saved}/${total} bundle(s) saved to ${opts.out}${embargoed === 0 ? '' : `; ${embargoed} embargoed until the chain reveals their weights (fetch them again later)`}\n`,
        );
        if (named.size > 0)
          io.stdout.write(
            `the saved bundles name validator hotkey${named.size === 1 ? '' : 's'} ${[...named].map(([h, n]) => `${h} (${n})`).join(', ')}${opts.validatorHotkey === undefined ? ' (check it is the validator you audit, or pass --validator-hotkey)' : ''}\n`,
          );
        if (several) io.stdout.write(`verify them together to find equivocations: auditor-replay verify ${folders.join(' ')}\n`);
      },
    );

  // With --json a failure is also one JSON object on stdout, so a script reading it always gets JSON.
  const json = argv.includes('--json');
  const fail = (errorCode: string, message: string): number => {
    io.stderr.write(`error: ${message}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ exit_code: 2, error: { code: errorCode, message } })}\n`);
    return 2;
  };
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every parse error is invalid input.
      if (error.exitCode === 0) return 0;
      // commander's sentence (a misspelt required flag reported as unknown first), coded (@subnet/cli-support)
      const usage = new SubnetError(AUDITOR_ERROR_CODES.invalidOption, usageCause(error, program, argv));
      const exit = fail(usage.code, usage.message);
      if (!json) io.stderr.write(`(run "${helpCommand(program, argv)}" for usage)\n`);
      return exit;
    }
    if (isSubnetError(error)) {
      return fail(error.code, error.message);
    }
    // A bug, not the user's input: say so with its message, never a stack trace.
    return fail(AUDITOR_ERROR_CODES.internal, `[${AUDITOR_ERROR_CODES.internal}] ${error instanceof Error ? error.message : String(error)}`);
  }
  return code;
}

/** This package's version (`--version`): read from its package.json, one folder up from `src/` and from `dist/`. */
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** A usage error the CLI finds itself (beyond what commander checks), naming the option. */
function invalidOption(summary: string, option: string): SubnetError {
  return new SubnetError(AUDITOR_ERROR_CODES.invalidOption, summary, { context: { option } });
}

/** The help to read after a usage error: the subcommand's when the command line names one. */
function helpCommand(program: Command, argv: readonly string[]): string {
  const sub = program.commands.find((command) => command.name() === argv[0]);
  return sub === undefined ? 'auditor-replay --help' : `auditor-replay ${sub.name()} --help`;
}
