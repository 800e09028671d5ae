/**
 * `subnet-devnet` command-line errors carry `DEVNET_USAGE` and exit 2, as the other CLIs of the workspace do
 * (`VALIDATOR_USAGE`, `MINER_CHECK_USAGE`, `AUDITOR_USAGE`): one coded line on stderr naming the option and value,
 * or one JSON error on stdout with --json; option values the devnet refuses are `DEVNET_INVALID_OPTIONS`, also exit 2.
 * Runs the built CLI (`bin/subnet-devnet.js` over `dist/cli.js`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { DEVNET_ERROR_CODES } from '../errors.js';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';
import { REFUSED_PORT } from '@subnet/vitest-config/local-server';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/subnet-devnet.js', import.meta.url));
const USAGE = DEVNET_ERROR_CODES.usage;

beforeAll(() => {
  expectBuiltCli(packageDir);
});

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: packageDir, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exit 2, nothing on stdout, the coded line (with `names` in it) and where to read the usage on stderr. */
function expectUsage(r: { code: number | null; stdout: string; stderr: string }, help: string, ...names: string[]): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(new RegExp(`^error: \\[${USAGE}\\] `));
  for (const name of names) expect(lines[0]).toContain(name);
  expect(lines[1]).toBe(`(run "${help}" for usage)`);
}

describe('subnet-devnet usage errors carry DEVNET_USAGE (exit 2)', () => {
  it('an unknown option names it', () => {
    expectUsage(run('--port', '0', '--bogus'), 'subnet-devnet --help', "unknown option '--bogus'");
  });

  it('a malformed value names the option, the value and what is expected', () => {
    expectUsage(
      run('--port', 'abc'),
      'subnet-devnet --help',
      "option '--port <n>' argument 'abc' is invalid",
      '--port must be an integer in [0, 65535], got "abc"',
    );
    expectUsage(run('--runtime', 'finney'), 'subnet-devnet --help', "option '--runtime <kind>' argument 'finney' is invalid", 'legacy or stateful');
  });

  it('a number out of range names the flag as typed and its range: --tempo 0 (no epoch would ever run) and the other numeric flags', () => {
    // Before, --tempo 0 started a chain that never runs an epoch (and a validator divides by its tempo), --block-time
    // above 2^31 - 1 ms produced a block every millisecond (Node's timer overflow), --rate-limit above 2^53 lost its
    // low digits, and --port 65536 or --netuid 0 were DEVNET_INVALID_OPTIONS naming the option's field, not the flag.
    const cases: [string, string, string][] = [
      ['--tempo', '0', '[1, 65535]'],
      ['--tempo', '65536', '[1, 65535]'],
      ['--port', '65536', '[0, 65535]'],
      ['--block-time', '2147483648', '[0, 2147483647]'],
      ['--netuid', '0', '[1, 4095]'],
      ['--netuid', '4096', '[1, 4095]'],
      ['--neurons', '0', '[1, 4096]'],
      ['--validators', '4097', '[0, 4096]'],
      ['--rate-limit', '18446744073709551616', '[0, 18446744073709551615]'],
      ['--commit-reveal-version', '65536', '[0, 65535]'],
      ['--finality-lag', '65', '[0, 64]'],
      ['--spec-version', '392', '[393, 422]'],
      ['--spec-version', '423', '[393, 422]'],
    ];
    for (const [flag, value, range] of cases) {
      const args = flag === '--port' ? [flag, value] : ['--port', '0', flag, value];
      expectUsage(
        run(...args),
        'subnet-devnet --help',
        `option '${flag} <`,
        `argument '${value}' is invalid`,
        `${flag} must be an integer in ${range}, got "${value}"`,
      );
    }
  });

  it('an option without its value names the option', () => {
    expectUsage(run('--tempo'), 'subnet-devnet --help', "option '--tempo <n>' argument missing");
  });

  it('with --json: one JSON error on stdout, nothing on stderr', () => {
    const r = run('--json', '--port', 'abc');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0]!) as { error: { code: string; message: string } };
    expect(error.code).toBe(USAGE);
    expect(error.message).toMatch(new RegExp(`^\\[${USAGE}\\] option '--port <n>' argument 'abc' is invalid`));
  });

  it('option values the devnet refuses: DEVNET_INVALID_OPTIONS naming the field, exit 2 (text and --json)', () => {
    const text = run('--port', '0', '--neurons', '2', '--validators', '3');
    expect(text.code).toBe(2);
    expect(text.stderr.split('\n')[0]).toMatch(new RegExp(`^error: \\[${DEVNET_ERROR_CODES.invalidOptions}\\] .*validators`));
    const json = run('--port', '0', '--neurons', '2', '--validators', '3', '--json');
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout.trim()) as { error: { code: string } }).error.code).toBe(DEVNET_ERROR_CODES.invalidOptions);
  });

  it('--spec-version on the stateful runtime is DEVNET_INVALID_OPTIONS naming specVersion, exit 2; --help names the flag', () => {
    const r = run('--port', '0', '--spec-version', '400');
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^error: \\[${DEVNET_ERROR_CODES.invalidOptions}\\] .*specVersion is for runtime 'legacy'`));
    // commander wraps the description to the terminal width
    expect(run('--help').stdout.replace(/\s+/g, ' ')).toContain('--spec-version <n> spec version of the legacy runtime (393 to 422; default 393)');
  });

  it('--version and -V print the package version on stdout and exit 0', () => {
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(run(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists the exit codes and exits 0', () => {
    const r = run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes: 0 stopped by SIGINT or SIGTERM; 1 a failure to start');
    expect(r.stdout).toContain(`2 an invalid command line (${USAGE}`);
    // Every fault option the README names is in the summary, --after-extrinsics of replace-neuron included.
    expect(r.stdout).toContain('subnet-devnet fault replace-neuron <uid> <hotkey> [coldkey] [--after-extrinsics] [--url ws://127.0.0.1:9944]');
    expect(r.stdout).toContain('subnet-devnet fault swap-hotkey <hotkey> <new-hotkey> [--after-extrinsics] [--url ws://127.0.0.1:9944]');
    expect(r.stdout).toContain('subnet-devnet fault reorganize <depth> [branch-json] [--drop-retracted]');
  });

  it('subnet-devnet fault: an unknown action, a malformed value or no action is DEVNET_USAGE (exit 2); its --help lists the exit codes', () => {
    // The actions are listed, as for no action at all (commander's sentence named none).
    expectUsage(
      run('fault', 'explode'),
      'subnet-devnet fault --help',
      "unknown fault action 'explode' (the actions: status, freeze, thaw, stall, resume, drop-connections, drop-next, reset, delay-next, reject-next, reorganize, replace-neuron, swap-hotkey)",
    );
    expectUsage(run('fault', 'stauts'), 'subnet-devnet fault --help', "unknown fault action 'stauts' (did you mean status?) (the actions: status,");
    expectUsage(run('fault', 'delay-next', 'soon'), 'subnet-devnet fault --help', "argument value 'soon' is invalid for argument 'ms'");
    // Before, a delay above 2^31 - 1 ms was sent, and the devnet's timer fired after 1 ms.
    expectUsage(
      run('fault', 'delay-next', '2147483648'),
      'subnet-devnet fault --help',
      "argument value '2147483648' is invalid for argument 'ms'",
      '<ms> must be an integer in [0, 2147483647], got "2147483648"',
    );
    expectUsage(run('fault'), 'subnet-devnet fault --help', 'a fault action is required: status, freeze');
    expectUsage(run('fault', 'reorganize', '2', '{"pulses":false}'), 'subnet-devnet fault --help', 'expected a JSON list of branch blocks');
    const help = run('fault', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`2 an invalid command line (${USAGE}`);
    expect(help.stdout).toContain(`1 the request failed (${DEVNET_ERROR_CODES.faultFailed}: no devnet at`);
  });
});

describe('subnet-devnet on a port another process holds', () => {
  it('DEVNET_LISTEN_FAILED naming the address and the OS reason (EADDRINUSE), exit 1, no stack trace', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as { port: number };
      const text = run('--port', String(port));
      expect(text.code).toBe(1);
      expect(text.stderr.split('\n')[0]).toBe(
        `error: [${DEVNET_ERROR_CODES.listenFailed}] cannot listen on 127.0.0.1:${port}: EADDRINUSE (address already in use); another process ` +
          `listens there (a devnet already running?): stop it, or choose another port (--port 0 picks a free one) at --port (got ${port})`,
      );
      expect(text.stderr).not.toMatch(/\n\s+at /);
      const json = run('--port', String(port), '--json');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        error: { code: DEVNET_ERROR_CODES.listenFailed, message: expect.stringContaining('EADDRINUSE') as unknown },
      });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('subnet-devnet fault when the request fails', () => {
  it('DEVNET_FAULT_FAILED: the coded line naming the method, the URL (credentials hidden) and the reason, exit 1, no stack trace', () => {
    // A port on 127.0.0.1 where nothing listens (out of the range handed out): the connection is refused.
    const port = REFUSED_PORT;
    const r = run('fault', 'status', '--url', `ws://operator:s3cret@127.0.0.1:${port}`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // Before: `devnet_faultStatus failed: connect ECONNREFUSED ...`, the one failure of the CLI without its code.
    expect(r.stderr).toBe(
      `error: [${DEVNET_ERROR_CODES.faultFailed}] devnet_faultStatus failed at ws://***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}; ` +
        'no devnet listens there: start one (subnet-devnet --port <n>) or give the URL it printed with --url\n',
    );
    expect(r.stderr).not.toContain('s3cret');
  });
});
