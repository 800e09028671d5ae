import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { MINER_CHECK_ERROR_CODES } from '../index.js';
import { appDir, example, jsonOf, requireBuiltCli, runCli } from './cli-support.js';

/**
 * Docs review, item 2: a usage error the command-line parser finds (an option value outside its choices, an unknown
 * option or command, a missing value) carries MINER_CHECK_USAGE like the CLI's own errors, exits 2, and says first
 * what is wrong: which option, which value, what is allowed. Runs the built CLI (dist/cli.js).
 */
beforeAll(requireBuiltCli);

const USAGE = MINER_CHECK_ERROR_CODES.usage;
const scores = example('weights', 'scores.json');

/** The text output: one first line with the code and the parser's own sentence naming the option and value, then the help pointer. */
function expectUsageText(run: { code: number | null; stdout: string; stderr: string }, ...names: string[]): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const [first, second] = run.stderr.split('\n');
  expect(first).toMatch(new RegExp(`^miner-check: \\[${USAGE}\\] `));
  for (const name of names) expect(first).toContain(name);
  expect(second).toMatch(/^\(run "miner-check .*--help" for usage\)$/);
}

describe('miner-check usage errors carry MINER_CHECK_USAGE (exit 2)', () => {
  it('a value outside an option’s choices: the option, the value and the allowed values, in the text', () => {
    expectUsageText(
      runCli(['weights', '--scores', scores, '--strategy', 'fair']),
      "option '--strategy <s>' argument 'fair' is invalid",
      'linear, softmax, winner_takes_all, quadratic, ranked',
    );
  });

  it('the same with --json: one JSON error on stdout, nothing on stderr, the message leading with the option', () => {
    const run = runCli(['weights', '--scores', scores, '--strategy', 'fair', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    const error = jsonOf(run).error as { code: string; message: string; path: unknown };
    expect(error.code).toBe(USAGE);
    expect(error.message).toMatch(new RegExp(`^\\[${USAGE}\\] option '--strategy <s>' argument 'fair' is invalid\\. Allowed choices are linear,`));
    expect(error.path).toBeNull();
  });

  it('an unknown option names it', () => {
    expectUsageText(runCli(['term', '--results', '-', '--total-tasks', '3', '--bogus']), "unknown option '--bogus'");
  });

  it('an option without its value names the option', () => {
    expectUsageText(runCli(['term', '--results', '-', '--total-tasks']), "option '--total-tasks <n>' argument missing");
  });

  it('a flag where a value belongs (`--total-tasks --json`): "needs a value", as the JSON error on stdout when --json is there', () => {
    const json = runCli(['term', '--results', example('term', 'results.json'), '--total-tasks', '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toBe('');
    expect(jsonOf(json)).toEqual({ error: { code: USAGE, message: `[${USAGE}] --total-tasks needs a value (got the flag --json)`, path: null } });
    const text = runCli(['term', '--total-tasks', '--results', example('term', 'results.json')]);
    expectUsageText(text, '--total-tasks needs a value (got the flag --results)');
    expect(text.stderr.trimEnd().split('\n').at(-1)).toBe('(run "miner-check term --help" for usage)');
  });

  it('every subcommand and global option that takes a value refuses a flag as its value alike (one shared check)', () => {
    const hotkey = '5FyFFDydUXVCefVGjNfoDFGBkTviCCwCqKVch43vBWAGwQ78';
    const sssa = example('sssa', 'sssa.json');
    const cases: [string[], string][] = [
      [['weights', '--scores', scores, '--cap', '--json'], '--cap'],
      [['weights', '--scores', scores, '--strategy', '--json'], '--strategy'],
      [['weights', '--scores', '--json'], '--scores'],
      [['sssa', '--sssa', sssa, '--uid', '--json'], '--uid'],
      [['sssa', '--sssa', sssa, '--role', '--json'], '--role'],
      [['sssa', '--sssa', sssa, '--peers', '--json'], '--peers'],
      [['explain', '--bundles', appDir, '--hotkey', hotkey, '--epoch', '--json'], '--epoch'],
      [['explain', '--bundles', appDir, '--hotkey', '--json'], '--hotkey'],
      [['--max-depth', '--json', 'term', '--results', '-', '--total-tasks', '3'], '--max-depth'],
      [['workflow', '--task', '--json', '--plan', 'p.json', '--run', 'r.json'], '--task'],
    ];
    for (const [args, flag] of cases) {
      const run = runCli(args);
      expect([args, run.code, run.stderr]).toEqual([args, 2, '']);
      expect(jsonOf(run)).toEqual({ error: { code: USAGE, message: `[${USAGE}] ${flag} needs a value (got the flag --json)`, path: null } });
    }
  });

  it('a required option left out names it', () => {
    expectUsageText(runCli(['weights']), "required option '--scores <file>' not specified");
  });

  it('an unknown command names it and the commands there are', () => {
    expectUsageText(runCli(['frob']), "unknown command 'frob'", 'workflow, sssa, term, weights, explain');
    expect(jsonOf(runCli(['frob', '--json'])).error).toMatchObject({ code: USAGE });
  });

  it('no command at all: the help on stderr, then the coded error naming the commands', () => {
    const run = runCli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: miner-check');
    expect(run.stderr).toContain(`miner-check: [${USAGE}] a command is required: workflow, sssa, term, weights, explain\n`);
  });

  it('help with a mistyped command names the typo, not "a command is required"; help of a real command is its help', () => {
    const typo = runCli(['help', 'trem']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`miner-check: [${USAGE}] unknown command 'trem' (the commands: workflow, sssa, term, weights, explain)\n`);
    expect(typo.stderr).not.toContain('a command is required');
    const help = runCli(['help', 'term']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: miner-check term');
  });

  it('a mistyped required option is named as unknown, with the flag meant, not as "required option not specified"', () => {
    const run = runCli(['term', '--resluts', 'results.json', '--total-tasks', '3']);
    expectUsageText(run, "unknown option '--resluts'", '(Did you mean --results?)');
    expect(run.stderr).not.toContain('not specified');
    expectUsageText(runCli(['term', '--total-tasks', '3']), "required option '--results <file>' not specified");
  });

  it('the last line points at the help of the command given, as auditor-replay and subnet-validator do', () => {
    expect(runCli(['term', '--results']).stderr.trimEnd().split('\n').at(-1)).toBe('(run "miner-check term --help" for usage)');
    expect(runCli(['--max-depth', '16', 'weights', '--strategy', 'fair']).stderr.trimEnd().split('\n').at(-1)).toBe(
      '(run "miner-check weights --help" for usage)',
    );
    expect(runCli(['trem']).stderr.trimEnd().split('\n').at(-1)).toBe('(run "miner-check --help" for usage)');
  });

  it('--version and -V print the package version on stdout and exit 0', () => {
    const { version } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help still prints the help on stdout and exits 0', () => {
    const run = runCli(['weights', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--strategy <s>');
    expect(run.stderr).toBe('');
  });
});

describe('miner-check --help names every exit code the CLI uses', () => {
  it('0, 1, 2 and 141 (the output pipe closed early: EPIPE)', () => {
    const run = runCli(['--help']);
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/Exit codes: 0 computed, 2 invalid input \(MINER_CHECK_USAGE[^)]*\), 1 other failure, 141 /);
    expect(help).toContain('EPIPE');
  });
});

describe('explain --bundles names the flag when the folder is wrong', () => {
  it('a folder that does not exist, or holds no bundle, is refused at --bundles (it said BUNDLE[0], the auditor operand)', () => {
    const missing = join(appDir, 'no-such-bundles-folder');
    const hotkey = '5FyFFDydUXVCefVGjNfoDFGBkTviCCwCqKVch43vBWAGwQ78';
    const text = runCli(['explain', '--bundles', missing, '--hotkey', hotkey]);
    expect(text.code).toBe(2);
    expect(text.stderr).toBe(
      `miner-check: [AUDITOR_UNREADABLE] cannot read ${missing}: ENOENT (no such file or directory); ` +
        `give a bundle file or a folder of them (the folder auditor-replay fetch --out wrote, or a validator's bundles.dir) at --bundles (got "${missing}")\n`,
    );
    const json = runCli(['explain', '--bundles', join(appDir, 'examples'), '--hotkey', hotkey, '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toBe('');
    expect(jsonOf(json)).toMatchObject({ error: { code: 'AUDITOR_UNREADABLE', path: '--bundles' } });
    expect((jsonOf(json).error as { message: string }).message).toContain('this folder holds no *.json bundle file');
  });
});
