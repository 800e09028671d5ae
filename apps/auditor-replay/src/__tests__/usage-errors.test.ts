import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { AUDITOR_ERROR_CODES } from '../index.js';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * Docs review, item 2: every usage error of the CLI, commander's own (an option value out of range, an unknown option
 * or command, a missing argument) and the CLI's (`--chain` without `--netuid`, a `--validator` that is not http),
 * carries AUDITOR_INVALID_OPTION in the text and, with `--json`, in one JSON object on stdout; exits 2; and says first
 * what is wrong: the option, the value, what is allowed. Runs the built binary (bin/auditor-replay.js -> dist/cli.js).
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');
const CODE = AUDITOR_ERROR_CODES.invalidOption;

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: appDir, timeout: 50_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

beforeAll(() => {
  expectBuiltCli(appDir);
});

/**
 * Text: the first line is `error: [AUDITOR_INVALID_OPTION] <cause>`; stdout empty. After a parse error (commander's),
 * one more line points at the help; the CLI's own checks name everything in their one line.
 */
async function expectUsageText(args: readonly string[], ...names: string[]): Promise<string> {
  return expectText(true, args, names);
}

async function expectOwnCheckText(args: readonly string[], ...names: string[]): Promise<string> {
  return expectText(false, args, names);
}

async function expectText(parseError: boolean, args: readonly string[], names: readonly string[]): Promise<string> {
  const r = await run(args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(new RegExp(`^error: \\[${CODE}\\] `));
  for (const name of names) expect(lines[0]).toContain(name);
  expect(lines.slice(1)).toEqual(parseError ? [expect.stringMatching(/^\(run "auditor-replay( verify| fetch)? --help" for usage\)$/)] : []);
  return lines[0] ?? '';
}

/** --json: one JSON object on stdout with exit_code 2 and the coded error. */
async function expectUsageJson(args: readonly string[], ...names: string[]): Promise<void> {
  const r = await run(args);
  expect(r.code).toBe(2);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const body = JSON.parse(lines[0] ?? '') as { exit_code: number; error: { code: string; message: string } };
  expect(body.exit_code).toBe(2);
  expect(body.error.code).toBe(CODE);
  expect(body.error.message.startsWith(`[${CODE}] `)).toBe(true);
  for (const name of names) expect(body.error.message).toContain(name);
}

describe('auditor-replay usage errors carry AUDITOR_INVALID_OPTION (exit 2)', () => {
  it('verify --jobs 0: the option, the value and the range allowed', async () => {
    await expectUsageText(
      ['verify', 'bundles/', '--jobs', '0'],
      "option '--jobs <n>' argument '0' is invalid",
      '--jobs must be an integer in [1, 256], got "0"',
    );
    await expectUsageJson(['verify', 'bundles/', '--jobs', '0', '--json'], '--jobs must be an integer in [1, 256], got "0"');
  });

  it('an integer flag is decimal digits only: every other spelling is refused naming the flag, the value as given and what to write', async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['1e3', 'is written with an exponent (write 1000)'],
      ['0x10', 'is written with a 0x prefix (write 16)'],
      [' 5', 'has white space around it (write 5)'],
      ['5abc', 'is not a number'],
      ['-0', 'is zero with a minus sign (write 0)'],
      ['Infinity', 'is not a finite number'],
      ['3.0', 'has a fraction (write 3)'],
      ['', 'is empty'],
      ['--json', 'is a flag, not a value: give the value right after the flag'],
    ];
    for (const [value, why] of cases) {
      await expectUsageText(
        ['verify', 'bundles/', `--jobs=${value}`],
        `option '--jobs <n>' argument '${value}' is invalid. --jobs must be an integer in [1, 256] in decimal digits, got ${JSON.stringify(value)}, which ${why}`,
      );
    }
    await expectUsageJson(
      ['fetch', '--validator', 'http://127.0.0.1:1', '--from', '1e3', '--to', '5', '--out', 'o', '--json'],
      '--from must be an integer in [0, 9007199254740991] in decimal digits, got "1e3", which is written with an exponent (write 1000)',
    );
  }, 120_000);

  it('an unknown option names it', async () => {
    await expectUsageText(['verify', 'bundles/', '--bogus'], "unknown option '--bogus'");
    await expectUsageJson(['verify', 'bundles/', '--bogus', '--json'], "unknown option '--bogus'");
  });

  it('a missing argument names it', async () => {
    await expectUsageText(['verify'], "missing required argument 'bundle'");
    await expectUsageJson(['verify', '--json'], "missing required argument 'bundle'");
  });

  it('a required option left out, and one without its value, name the option', async () => {
    await expectUsageText(['fetch', '--validator', 'http://127.0.0.1:1', '--from', '1', '--to', '2'], "required option '--out <dir>' not specified");
    await expectUsageJson(
      ['fetch', '--validator', 'http://127.0.0.1:1', '--from', '1', '--to', '2', '--out', 'x', '--json', '--retries'],
      "option '--retries <n>' argument missing",
    );
  });

  it('an unknown command names it and the commands there are; no command at all names them too', async () => {
    await expectUsageText(['frob'], "unknown command 'frob'", 'verify, fetch');
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: auditor-replay');
    expect(none.stderr).toContain(`error: [${CODE}] a command is required: verify, fetch`);
  });

  it('a mistyped required option is named as unknown, with the option meant, not as "required option not specified"', async () => {
    const typo = await run(['fetch', '--vaildator', 'http://127.0.0.1:8091', '--from', '1', '--to', '2', '--out', 'x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`error: [${CODE}] unknown option '--vaildator' (Did you mean --validator?)`);
    expect(typo.stderr).not.toContain('not specified');
    const missing = await run(['fetch', '--from', '1', '--to', '2', '--out', 'x']);
    expect(missing.stderr).toContain(`error: [${CODE}] required option '--validator <url...>' not specified`);
  });

  it('--version and -V print the package version on stdout and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('help with a mistyped command names the typo, not "a command is required"; help of a real command is its help', async () => {
    const typo = await run(['help', 'verfy']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`error: [${CODE}] unknown command 'verfy' (the commands: verify, fetch)`);
    expect(typo.stderr).not.toContain('a command is required');
    const help = await run(['help', 'verify']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: auditor-replay verify');
  });

  it('verify --chain without --netuid names both and the value allowed', async () => {
    await expectOwnCheckText(['verify', 'bundles/', '--chain', 'ws://127.0.0.1:9944'], '--chain', '--netuid', '0 to 65535');
    await expectUsageJson(['verify', 'bundles/', '--chain', 'ws://127.0.0.1:9944', '--json'], '--netuid');
  });

  it('verify --chain http://… is refused before any connection: AUDITOR_INVALID_OPTION naming --chain, the value and the ws:// URL to give', async () => {
    // The user's report: `--chain http://127.0.0.1:9944` came back as AUDITOR_CHAIN_FAILED, "tried for 30 s", "check that the node is running".
    const started = Date.now();
    const line = await expectOwnCheckText(
      ['verify', 'bundles/', '--chain', 'http://127.0.0.1:9944', '--netuid', '1'],
      '--chain "http://127.0.0.1:9944"',
      'ws:// or wss://',
      'give ws://127.0.0.1:9944',
    );
    expect(line).not.toContain('AUDITOR_CHAIN_FAILED');
    expect(line).not.toContain('tried for');
    await expectUsageJson(['verify', 'bundles/', '--chain', 'https://node.example:443', '--netuid', '1', '--json'], '--chain', 'give wss://node.example:443');
    // Neither a URL nor a network name; credentials of a refused value are redacted.
    await expectOwnCheckText(['verify', 'bundles/', '--chain', '127.0.0.1:9944', '--netuid', '1'], '--chain "127.0.0.1:9944"', 'finney, test, local');
    const secret = await expectOwnCheckText(['verify', 'bundles/', '--chain', 'http://user:secret@node.example:9944', '--netuid', '1'], '--chain');
    expect(secret).not.toContain('secret');
    // No connection is tried: far less than the 30 s --chain-timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('verify --chain with a network name the chain package knows (local) is not refused as an option: it is tried, and fails as a chain', async () => {
    const r = await run(['verify', 'bundles/', '--chain', 'local', '--netuid', '1', '--chain-timeout', '300']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain(CODE);
  });

  it('fetch --validator that is not http(s) names the value (credentials redacted) and what is allowed', async () => {
    const line = await expectOwnCheckText(
      ['fetch', '--validator', 'ftp://user:secret@example.org', '--from', '1', '--to', '2', '--out', 'x'],
      '--validator',
      'http:// or https://',
    );
    expect(line).toContain('ftp://***@example.org');
    expect(line).not.toContain('secret');
    await expectUsageJson(['fetch', '--validator', 'ftp://example.org', '--from', '1', '--to', '2', '--out', 'x', '--json'], '--validator');
  });

  it('fetch with a range backwards (the CLI’s own check) gives the same JSON with --json', async () => {
    await expectUsageJson(['fetch', '--validator', 'http://127.0.0.1:1', '--from', '5', '--to', '2', '--out', 'x', '--json'], '--from 5 --to 2');
  });

  it('--help still prints the help on stdout and exits 0', async () => {
    const r = await run(['verify', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--jobs <n>');
    expect(r.stderr).toBe('');
  });
});

describe('auditor-replay --help names every exit code the CLI uses', () => {
  it.each([[[]], [['verify']], [['fetch']]])('%j --help: 0, 1, 2 with AUDITOR_INVALID_OPTION, and 141 (EPIPE)', async (sub) => {
    const r = await run([...sub, '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/Exit codes: 0 /);
    expect(help).toMatch(/ 1 /);
    expect(help).toContain(CODE);
    expect(help).toMatch(/141 [^.]*EPIPE/);
    expect(help).toMatch(/130 stopped by Ctrl-C \(SIGINT ends [^)]*; 143 for SIGTERM\)/);
  });

  it('the README exit table lists every one: 0, 1, 2, 130 (SIGINT, 143 for SIGTERM) and 141 (EPIPE)', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const table = readme.slice(readme.indexOf('## Exit codes'), readme.indexOf('\n## ', readme.indexOf('## Exit codes') + 1));
    const codes = table
      .split('\n')
      .map((line) => /^\| (\d+) +\|/.exec(line)?.[1])
      .filter((code) => code !== undefined);
    expect(codes).toEqual(['0', '1', '2', '130', '141']);
    expect(table).toMatch(/\| 130 +\| stopped by Ctrl-C \(SIGINT\)[^|]*143 for SIGTERM/);
  });
});
