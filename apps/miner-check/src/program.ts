import { createRequire } from 'node:module';

import { Command, CommanderError, Option } from 'commander';

import { missingKeyHint, overLimitHint, usageCause, wrongKindSentence } from '@subnet/cli-support';
import type { DocumentKindId } from '@subnet/cli-support';
import { describeValue, hotkeySchema, isSubnetError, parseInput, SubnetError } from '@subnet/core';

import type { CommandOutput, ErrorContext } from './commands/output.js';
import type { SssaCheckInput } from './commands/sssa.js';
import {
  assertSingleStdin,
  defaultStdin,
  integerOption,
  rangeOption,
  READ_LIMIT_OPTIONS,
  readJson,
  readLimits,
  type LimitFlags,
  type StdinReader,
} from './io.js';
import { MINER_CHECK_ERROR_CODES } from './errors.js';
import { refuseFlagsAsValues } from './flag-as-value.js';

/** This package's version (`--version`): read from its package.json, one folder up from `src/` and from `dist/`. */
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * Exit codes: 0 computed, 2 invalid input, 1 anything else; `cli.ts` ends with 141 when stdout's reader closes it early
 * (EPIPE); SIGINT and SIGTERM end the process by the signal (no handler), which a shell reports as 130 and 143.
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_INVALID_INPUT = 2;

/** Where the program writes and reads; the real process streams by default. */
export interface ProgramIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: StdinReader;
}

const processIo: ProgramIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: defaultStdin,
};

interface GlobalState {
  json: boolean;
  exitCode: number;
  /** What the running command read, for explaining its errors. */
  errorContext?: () => ErrorContext;
  /** The inputs read so far: the flag, the file (`-` for standard input) and the parsed document. */
  readonly inputs: { readonly option: string; readonly file: string; readonly value: unknown }[];
}

/** The kinds of file each input flag takes (`@subnet/cli-support`'s `documentKind`). */
const ACCEPTED_KINDS: Readonly<Record<string, readonly DocumentKindId[]>> = Object.freeze({
  '--task': ['workflow-task'],
  '--plan': ['workflow-plan'],
  '--run': ['execution-record'],
  '--sssa': ['sssa', 'sssa-member'],
  '--peers': ['sssa', 'sssa-member', 'sssa-group'],
  '--candidates': ['candidates'],
  '--results': ['term-results'],
  '--scores': ['miner-scores'],
});

/**
 * For each input that looks like another kind of file than its flag takes (a peers file given to --sssa), what it
 * looks like and where it goes: `peers.json, given to --sssa, looks like a peers file (...): give it to miner-check sssa
 * --peers`; undefined when every input looks like its flag's kind, or like none.
 */
function wrongKinds(inputs: GlobalState['inputs']): string | undefined {
  const sentences = inputs.flatMap(({ option, file, value }) => {
    const sentence = wrongKindSentence(value, ACCEPTED_KINDS[option.replace(/\[\d+\]$/, '')] ?? []);
    return sentence === undefined ? [] : [`${file === '-' ? 'standard input' : file}, given to ${option}, ${sentence}`];
  });
  return sentences.length === 0 ? undefined : sentences.join('; ');
}

/** Errors that mean "your input is wrong" (exit 2) rather than "something broke" (exit 1). */
function isInputError(error: SubnetError): boolean {
  return /^(MINER_CHECK_|COMPOSITE_|CONSENSUS_|AGGREGATION_|CORE_|AUDITOR_)/.test(error.code) && !error.code.endsWith('_INTERNAL');
}

function report(io: ProgramIo, state: GlobalState, error: unknown): void {
  if (isSubnetError(error)) {
    const path = typeof error.context.path === 'string' ? error.context.path : undefined;
    state.exitCode = isInputError(error) ? EXIT_INVALID_INPUT : EXIT_FAILURE;
    const context = path === undefined ? undefined : state.errorContext?.();
    // A required key reported missing where the document has it misspelt: the key it has, under the error.
    // An input over a size limit of the command line (its path starts at the flag, `--results[3]`; the packages' own
    // checks start at a document, `sssa`): the flag that sets the limit, with its value.
    const hint =
      path !== undefined && context !== undefined && 'value' in error.context && error.context.value === undefined
        ? missingKeyHint(path, context.documents)
        : path?.startsWith('--') === true
          ? overLimitHint(error.context, READ_LIMIT_OPTIONS)
          : undefined;
    const source = path === undefined ? undefined : context?.sourceOf?.(path);
    // A schema error in a document (its path starts at the document, `sssa`, `record.x`; a flag's own path is `--uid`)
    // when an input is another kind of file: the error leads with what the file looks like and where it goes.
    const looks = path !== undefined && !path.startsWith('--') ? wrongKinds(state.inputs) : undefined;
    const prefix = `[${error.code}] `;
    const message =
      looks === undefined ? error.message : `${prefix}${looks}; ${error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message}`;
    if (state.json) {
      const body: Record<string, unknown> = { code: error.code, message, path: path ?? null };
      if ('value' in error.context) body.value = describeValue(error.context.value);
      if (hint !== undefined) body.hint = hint;
      if (source !== undefined) body.source = source;
      io.stdout(`${JSON.stringify({ error: body })}\n`);
    } else {
      // One line with the cause: the code, then what is wrong in words, with the path and the value (the message names
      // both); the hint and the source under it. It was the code and the path alone, then the message repeating them.
      const lines = [`miner-check: ${message.startsWith(prefix) ? message : `${prefix}${message}`}`];
      if (hint !== undefined) lines.push(`  ${hint}`);
      if (source !== undefined) lines.push(`  ${source}`);
      io.stderr(`${lines.join('\n')}\n`);
    }
    return;
  }
  state.exitCode = EXIT_FAILURE;
  const message = error instanceof Error ? error.message : String(error);
  if (state.json) io.stdout(`${JSON.stringify({ error: { code: MINER_CHECK_ERROR_CODES.internal, message, path: null } })}\n`);
  else io.stderr(`miner-check: unexpected failure: ${message}\n`);
}

/** The help to read after a usage error: the subcommand's when the command line names one, as the other CLIs say. */
function helpCommand(program: Command, args: readonly string[]): string {
  // The first word that names a command (global options such as --max-depth 16 may come before it).
  const sub = args.find((arg) => program.commands.some((command) => command.name() === arg));
  return sub === undefined ? 'miner-check --help' : `miner-check ${sub} --help`;
}

function emit(io: ProgramIo, state: GlobalState, output: CommandOutput): void {
  io.stdout(state.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
}

function jsonOption(): Option {
  return new Option('--json', 'print one JSON object (snake_case keys) on stdout instead of tables');
}

/**
 * Builds the `miner-check` program.
 */
export function buildProgram(io: ProgramIo, state: GlobalState): Command {
  const program = new Command('miner-check')
    .description(
      'Check your work before you submit it: the exact score each subnet-scoring rule gives it, and why.\n' +
        'Every input is a JSON file, or - for standard input. Exit codes: 0 computed, 2 invalid input (MINER_CHECK_USAGE for a wrong ' +
        'command line, or the code printed), 1 other failure, 141 the reader closed the output early (EPIPE, as `| head` does), ' +
        '130 stopped by Ctrl-C (SIGINT ends it at once, printing nothing more; 143 for SIGTERM).',
    )
    // A parse error is reported by runMinerCheck with its code (text or --json), not written here by commander.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => undefined })
    .version(VERSION, '-V, --version', 'print the version and exit')
    .exitOverride()
    .option('--max-bytes <n>', 'largest input file in bytes (the validator default: 1048576; at most 67108864)')
    .option('--max-depth <n>', 'deepest nesting of objects and arrays (the validator default and most: 64)')
    .option('--max-list-length <n>', 'most elements of one list (the validator default and most: 100000)')
    .option('--max-string-length <n>', 'most UTF-16 code units of one string or key (the validator default and most: 1048576)')
    .option('--max-object-keys <n>', 'most keys of one object (the validator default and most: 10000)');

  /** Reads one input under the limits given on the command line (the validator's by default). */
  const readInput = (source: string, option: string): unknown => {
    const value = readJson(source, option, io.stdin, readLimits(program.opts<LimitFlags>()));
    state.inputs.push({ option, file: source, value });
    return value;
  };

  /** Runs a command on what it read; `errorContext` says what that was, for the lines under an error (`report`). */
  const run = (action: () => CommandOutput, errorContext?: () => ErrorContext) => {
    if (errorContext !== undefined) state.errorContext = errorContext;
    emit(io, state, action());
  };

  program
    .command('workflow')
    .description('Score one executed workflow: composite score, components, gates, counters, and advice.')
    .requiredOption('--task <file>', 'the benchmark task JSON (task_id, constraints.max_budget_tao, constraints.max_latency_seconds)')
    .requiredOption('--plan <file>', 'your workflow plan JSON (nodes, edges, error_handling)')
    .requiredOption('--run <file>', 'the execution record JSON (output_quality_score, actual_tao, actual_seconds, attempts or counters)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExample:\n  miner-check workflow --task examples/workflow/task.json --plan examples/workflow/plan.json --run examples/workflow/run.json\n' +
        '  cat run.json | miner-check workflow --task task.json --plan plan.json --run - --json',
    )
    .action(async (options: { task: string; plan: string; run: string; json?: boolean }) => {
      state.json = options.json === true;
      assertSingleStdin({ '--task': options.task, '--plan': options.plan, '--run': options.run });
      const { workflowCheck } = await import('./commands/workflow.js');
      const input = { task: readInput(options.task, '--task'), plan: readInput(options.plan, '--plan'), run: readInput(options.run, '--run') };
      // Their errors' paths start with task, plan and record (the execution record).
      run(
        () => workflowCheck(input),
        () => ({ documents: { task: input.task, plan: input.plan, record: input.run } }),
      );
    });

  program
    .command('sssa')
    .description(
      'Validate your SSSA and show its canonical finding keys; with --peers (the other SSSAs of your group), the group sets ' +
        'and your seven consensus components; with --block-hash, --task-id and --candidates, the verification group draw.',
    )
    .requiredOption('--sssa <file>', 'your SSSA: a bare SSSA document, or { uid, hotkey, role, sssa }')
    .option('--peers <files...>', 'the other group members: each file one document or an array (bare SSSAs or member objects)')
    .option('--uid <uid>', 'your uid, for a bare --sssa document', '0')
    .option('--hotkey <ss58>', 'your hotkey, for a bare --sssa document (a stand-in is used when omitted)')
    .addOption(new Option('--role <role>', 'your role, for a bare --sssa document').choices(['primary', 'auditor']).default('primary'))
    .option('--block-hash <hash>', 'block hash seeding the auditor draw (0x + 64 hex)')
    .option('--task-id <id>', 'task id seeding the auditor draw')
    .option('--candidates <file>', 'eligible miners: an array of { uid, hotkey, reputation }')
    .option('--primaries <k>', 'how many primaries (top reputation)', '3')
    .option('--auditors <m>', 'how many auditors (random draw)', '2')
    .option('--min-reputation <r>', "eligibility: minimum reputation, in [0, 1] (default: 0.2, the validator's)")
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  miner-check sssa --sssa examples/sssa/sssa.json --peers examples/sssa/peers.json\n' +
        '  miner-check sssa --sssa examples/sssa/sssa.json --block-hash 0x$(printf "ab%.0s" {1..32}) --task-id task-mcp-filebox-0001 \\\n' +
        '    --candidates examples/sssa/candidates.json --json',
    )
    .action(
      async (
        options: {
          sssa: string;
          peers?: string[];
          uid: string;
          hotkey?: string;
          role: 'primary' | 'auditor';
          blockHash?: string;
          taskId?: string;
          candidates?: string;
          primaries: string;
          auditors: string;
          minReputation?: string;
          json?: boolean;
        },
        command: Command,
      ) => {
        state.json = options.json === true;
        assertSingleStdin({ '--sssa': options.sssa, '--peers': options.peers, '--candidates': options.candidates });
        const { blockHash, taskId, candidates } = options;
        const drawFlags = [blockHash, taskId, candidates].filter((v) => v !== undefined).length;
        if (drawFlags !== 0 && drawFlags !== 3) {
          throw new SubnetError(
            MINER_CHECK_ERROR_CODES.invalidArgument,
            'the verification group draw needs --block-hash, --task-id and --candidates together',
            {
              context: { path: '--block-hash/--task-id/--candidates', value: drawFlags },
            },
          );
        }
        // A flag of the draw given without the draw would change nothing: refused, as --temperature without softmax is.
        if (drawFlags === 0) {
          for (const [key, flag] of [
            ['primaries', '--primaries'],
            ['auditors', '--auditors'],
            ['minReputation', '--min-reputation'],
          ] as const) {
            if (command.getOptionValueSource(key) === 'cli') {
              throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, `${flag} only applies to the draw (--block-hash, --task-id and --candidates)`, {
                context: { path: flag, value: options[key] },
              });
            }
          }
        }
        // Checked before anything is read, as explain's hotkeys are: the block hash seeds the draw, the hotkey is yours.
        if (blockHash !== undefined && !/^0x[0-9a-f]{64}$/.test(blockHash)) {
          throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, 'expected 0x followed by 64 lowercase hex digits', {
            context: { path: '--block-hash', value: blockHash },
          });
        }
        const hotkey = options.hotkey === undefined ? undefined : parseInput(hotkeySchema, options.hotkey, MINER_CHECK_ERROR_CODES.invalidArgument, '--hotkey');
        const { sssaCheck, sssaErrorContext } = await import('./commands/sssa.js');
        const input: SssaCheckInput = {
          self: { value: readInput(options.sssa, '--sssa'), option: '--sssa', file: options.sssa },
          peers: (options.peers ?? []).map((file, i) => ({ value: readInput(file, `--peers[${i}]`), option: `--peers[${i}]`, file })),
          uid: integerOption(options.uid, '--uid', 0, 65535),
          ...(hotkey === undefined ? {} : { hotkey }),
          role: options.role,
          ...(blockHash !== undefined && taskId !== undefined && candidates !== undefined
            ? {
                draw: {
                  blockHash,
                  taskId,
                  candidates: { value: readInput(candidates, '--candidates'), option: '--candidates' },
                  primaries: integerOption(options.primaries, '--primaries', 0, 65536),
                  auditors: integerOption(options.auditors, '--auditors', 0, 65536),
                  ...(options.minReputation === undefined ? {} : { minReputation: rangeOption(options.minReputation, '--min-reputation', { min: 0, max: 1 }) }),
                },
              }
            : {}),
        };
        run(
          () => sssaCheck(input),
          () => sssaErrorContext(input),
        );
      },
    );

  program
    .command('term')
    .description('Term challenge pass rate: a task scores 1 only when every test passes in time; unreported tasks count as failed.')
    .requiredOption('--results <file>', 'your results: an array of { task_id, tests_passed, tests_total, timed_out }')
    .requiredOption('--total-tasks <n>', "the benchmark's task count (e.g. 91 for Terminal-Bench 2.0)")
    .addOption(jsonOption())
    .addHelpText('after', '\nExample:\n  miner-check term --results examples/term/results.json --total-tasks 10')
    .action(async (options: { results: string; totalTasks: string; json?: boolean }) => {
      state.json = options.json === true;
      const { termCheck } = await import('./commands/term.js');
      const input = {
        results: readInput(options.results, '--results'),
        totalTasks: integerOption(options.totalTasks, '--total-tasks', 1, Number.MAX_SAFE_INTEGER),
      };
      run(
        () => termCheck(input),
        () => ({ documents: { results: input.results } }),
      );
    });

  program
    .command('weights')
    .description('The weight share and u16 value each miner would get: normalisation, the weight cap, then u16 (sum to 65535).')
    .requiredOption('--scores <file>', 'miner scores: an array of { uid, hotkey, score, submitted_at? } (score in [0, 1])')
    .addOption(
      new Option('--strategy <s>', 'normalisation strategy').choices(['linear', 'softmax', 'winner_takes_all', 'quadratic', 'ranked']).default('linear'),
    )
    .option('--cap <c>', 'maximum weight per miner, in (0, 1] (0.50 on the term challenge, 0.15 on the composite subnet)', '0.5')
    .option('--temperature <t>', 'softmax temperature, > 0 (softmax only, and required by it)')
    .option('--burn-uid <uid>', 'where weight that goes nowhere is sent', '0')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  miner-check weights --scores examples/weights/scores.json\n' +
        '  miner-check weights --scores examples/weights/scores.json --strategy softmax --temperature 0.1 --cap 0.15 --json',
    )
    .action(
      async (options: {
        scores: string;
        strategy: 'linear' | 'softmax' | 'winner_takes_all' | 'quadratic' | 'ranked';
        cap: string;
        temperature?: string;
        burnUid: string;
        json?: boolean;
      }) => {
        state.json = options.json === true;
        if (options.temperature !== undefined && options.strategy !== 'softmax') {
          throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, '--temperature only applies to --strategy softmax', {
            context: { path: '--temperature', value: options.temperature },
          });
        }
        const { weightsCheck } = await import('./commands/weights.js');
        const scores = readInput(options.scores, '--scores');
        run(
          () =>
            weightsCheck({
              scores,
              options: {
                strategy: options.strategy,
                ...(options.temperature === undefined
                  ? {}
                  : { temperature: rangeOption(options.temperature, '--temperature', { min: 0, minExclusive: true }) }),
                cap: rangeOption(options.cap, '--cap', { min: 0, minExclusive: true, max: 1 }),
                burnUid: integerOption(options.burnUid, '--burn-uid', 0, 65535),
              },
            }),
          () => ({ documents: { scores } }),
        );
      },
    );

  program
    .command('explain')
    .description(
      "Why your weight is what it is, from a validator's published bundles: your u16 weight over the epochs and, for one " +
        'epoch, the story (own score, evaluations used and excluded with their M values, normalisation, cap, decay, allocation, u16).\n' +
        'Only bundles whose digest and validator signature verify are used.',
    )
    .requiredOption('--bundles <dir|url>', 'a folder of signed bundles (auditor-replay fetch) or the validator URL (http://host:port)')
    .requiredOption('--hotkey <ss58>', 'your miner hotkey')
    .option('--epoch <n>', 'the epoch to explain (default the newest one that has you)')
    .option('--last <n>', 'from a URL: how many of the newest epochs to read', '20')
    .option('--timeout <ms>', 'from a URL: the limit of one request, the answer and its whole body', '10000')
    .option('--total-timeout <ms>', 'from a URL: the limit of the whole read; past it no bundle is asked for', '600000')
    .option(
      '--max-bundle-bytes <n>',
      "largest bundle in bytes, as auditor-replay verify's: a validator's answer over it is set aside while it is read, a file of the folder before it is read (default 67108864, at most 268435456)",
    )
    .option(
      '--retries <n>',
      'from a URL: retries of the list and of each bundle after a transient failure (network error, one request timing out, 408, 429, 5xx), waiting 250 ms doubled, at most 30 s; each wait is said on stderr, as is each bundle read (not with --json)',
      '3',
    )
    .option(
      '--validator-hotkey <ss58>',
      'the validator whose bundles you mean: a bundle another validator signed is set aside (AUDITOR_WRONG_VALIDATOR); a signature proves who signed, not that it is this validator',
    )
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  miner-check explain --bundles bundles/ --hotkey 5F...\n  miner-check explain --bundles http://127.0.0.1:8091 --hotkey 5F... --epoch 41 --json\n  miner-check explain --bundles http://127.0.0.1:8091 --hotkey 5F... --validator-hotkey 5G...',
    )
    .action(
      async (options: {
        bundles: string;
        hotkey: string;
        epoch?: string;
        last: string;
        timeout: string;
        totalTimeout: string;
        retries: string;
        maxBundleBytes?: string;
        validatorHotkey?: string;
        json?: boolean;
      }) => {
        state.json = options.json === true;
        const epoch = options.epoch === undefined ? undefined : integerOption(options.epoch, '--epoch', 0, Number.MAX_SAFE_INTEGER);
        // Both hotkeys are checked before anything is read: from a URL the read may take minutes, and a mistyped
        // --validator-hotkey would set every bundle aside.
        const hotkey = parseInput(hotkeySchema, options.hotkey, MINER_CHECK_ERROR_CODES.invalidArgument, '--hotkey');
        const validatorHotkey =
          options.validatorHotkey === undefined
            ? undefined
            : parseInput(hotkeySchema, options.validatorHotkey, MINER_CHECK_ERROR_CODES.invalidArgument, '--validator-hotkey');
        const [
          { sr25519Verifier },
          { createProgress, DEFAULT_BUNDLE_LIMITS, MAX_BUNDLE_BYTES, MAX_REQUEST_TIMEOUT_MS, MAX_TOTAL_TIMEOUT_MS, readPublishedBundles },
          { explainCheck },
        ] = await Promise.all([import('@subnet/bundle'), import('auditor-replay/pages'), import('./commands/explain.js')]);
        const last = integerOption(options.last, '--last', 1, 10_000);
        const bundles = await readPublishedBundles(options.bundles, {
          verify: await sr25519Verifier(),
          last,
          // The bound readPublishedBundles names when the last retry runs out of time (`raise it (at most …)`).
          timeoutMs: integerOption(options.timeout, '--timeout', 1, MAX_REQUEST_TIMEOUT_MS),
          totalTimeoutMs: integerOption(options.totalTimeout, '--total-timeout', 1, MAX_TOTAL_TIMEOUT_MS),
          retries: integerOption(options.retries, '--retries', 0, 100),
          // verify's option, default and bound: a bundle the auditor fetched and verified can be explained.
          maxBytes:
            options.maxBundleBytes === undefined
              ? DEFAULT_BUNDLE_LIMITS.maxBytes
              : integerOption(options.maxBundleBytes, '--max-bundle-bytes', 1, MAX_BUNDLE_BYTES),
          ...(validatorHotkey === undefined ? {} : { validatorHotkey }),
          // From a URL, a line on stderr per bundle and per wait to ask again (a read may take minutes); none with --json.
          ...(state.json
            ? {}
            : {
                progress: (total: number) =>
                  createProgress(
                    {
                      write: (text: string) => {
                        io.stderr(text);
                      },
                    },
                    total,
                    'explain',
                  ),
                onRetry: (sentence: string) => {
                  io.stderr(`explain: ${sentence}\n`);
                },
              }),
        });
        const fromUrl = /^https?:\/\//i.test(options.bundles);
        emit(io, state, explainCheck({ bundles, hotkey, ...(epoch === undefined ? {} : { epoch }), ...(fromUrl ? { last } : {}) }));
      },
    );

  // `--total-tasks --json`: a flag taken as the value before it is a missing value, named as such (usage error).
  refuseFlagsAsValues(program);
  return program;
}

/**
 * Runs `miner-check` with the given arguments (without `node` and the script path) and returns the exit
 * code. Never throws.
 */
export async function runMinerCheck(args: readonly string[], io: ProgramIo = processIo): Promise<number> {
  const state: GlobalState = { json: args.includes('--json'), exitCode: EXIT_OK, inputs: [] };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; usage errors are invalid input.
      if (error.exitCode === 0) return EXIT_OK;
      // commander's sentence (a misspelt required flag reported as unknown first), coded (@subnet/cli-support)
      report(io, state, new SubnetError(MINER_CHECK_ERROR_CODES.usage, usageCause(error, program, args)));
      if (!state.json) io.stderr(`(run "${helpCommand(program, args)}" for usage)\n`);
      return EXIT_INVALID_INPUT;
    }
    report(io, state, error);
    return state.exitCode;
  }
}
