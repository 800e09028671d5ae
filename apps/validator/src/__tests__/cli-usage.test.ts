import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { VALIDATOR_ERROR_CODES } from '../index.js';
import { resolveConfig } from '../config.js';
import { BUILT_CLI, expectBuiltCli, scoring, useTempDir } from './helpers.js';

/**
 * Docs review, item 2: every usage error of `subnet-validator`, commander's own (an option value out of range, an
 * unknown option or command, a missing option) and the CLI's (`demo --epochs` not a count, `init` over an existing
 * file), carries VALIDATOR_USAGE, exits 2 (as an invalid configuration does), and says first what is wrong: the
 * option, the value, what is allowed. Runs the built binary (bin/subnet-validator.js -> dist/cli.js) with the
 * workspace packages' builds, as an operator runs it.
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = BUILT_CLI;
const USAGE = VALIDATOR_ERROR_CODES.usage;
const t = useTempDir();

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: appDir, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

beforeAll(expectBuiltCli);

/** The first line is `error: [VALIDATOR_USAGE] <cause>` naming each of `names`; then a pointer at the help. */
async function expectUsage(args: readonly string[], ...names: string[]): Promise<void> {
  const r = await run(args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(new RegExp(`^error: \\[${USAGE}\\] `));
  for (const name of names) expect(lines[0]).toContain(name);
  expect(lines.slice(1)).toEqual([expect.stringMatching(/^\(run "subnet-validator( init| run| demo)? --help" for usage\)$/)]);
}

describe('subnet-validator usage errors carry VALIDATOR_USAGE (exit 2)', () => {
  it('run --port 99999: the option, the value and the range allowed', async () => {
    await expectUsage(['run', '--config', 'validator.yaml', '--port', '99999'], "option '--port <port>' argument '99999' is invalid", '0 to 65535');
  });

  it('run without --config, with an unknown option, and an option without its value name the option', async () => {
    await expectUsage(['run'], "required option '-c, --config <file>' not specified");
    await expectUsage(['run', '--config', 'validator.yaml', '--bogus'], "unknown option '--bogus'");
    await expectUsage(['run', '--config'], "option '-c, --config <file>' argument missing");
  });

  it('an unknown command names it and the commands there are', async () => {
    await expectUsage(['frob'], "unknown command 'frob'", 'init, run, demo');
  });

  it('demo --epochs that is not a count from 1 to 10 is refused before anything starts (it ran a demo of no epoch)', async () => {
    await expectUsage(['demo', '--epochs', 'abc'], "option '--epochs <n>' argument 'abc' is invalid", '1 to 10');
    await expectUsage(['demo', '--epochs', '0'], "argument '0' is invalid", '1 to 10');
    await expectUsage(['demo', '--epochs', '2.5'], "argument '2.5' is invalid");
  });

  it('an integer flag is decimal digits only: every other spelling is refused naming the flag, the value as given and what to write', async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['1e3', '"1e3" is written with an exponent (write 1000)'],
      ['0x10', '"0x10" is written with a 0x prefix (write 16)'],
      [' 5', '" 5" has white space around it (write 5)'],
      ['5abc', '"5abc" is not a number'],
      ['-0', '"-0" is zero with a minus sign (write 0)'],
      ['Infinity', '"Infinity" is not a finite number'],
      ['3.0', '"3.0" has a fraction (write 3)'],
      ['', '"" is empty'],
      ['--dry-run', '"--dry-run" is a flag, not a value: give the value right after the flag'],
    ];
    for (const [value, why] of cases) {
      await expectUsage(
        ['run', '--config', 'validator.yaml', `--port=${value}`],
        `option '--port <port>' argument '${value}' is invalid. --port must be an integer from 0 to 65535 in decimal digits; ${why}`,
      );
    }
    await expectUsage(
      ['demo', '--epochs', '3.0'],
      'argument \'3.0\' is invalid. --epochs must be an integer from 1 to 10 in decimal digits; "3.0" has a fraction (write 3)',
    );
  }, 120_000);

  it('init --config - prints the default configuration on standard output and writes no file named -', async () => {
    const printed = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [bin, 'init', '--config', '-'], { cwd: t.dir, timeout: 60_000 }, (error, stdout) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout });
      });
    });
    expect(printed.code).toBe(0);
    const { defaultConfigYaml } = await import('../config.js');
    expect(printed.stdout).toBe(defaultConfigYaml());
    expect(existsSync(join(t.dir, '-'))).toBe(false);
  });

  it('init over an existing file names it and --force, and leaves the file as it was', async () => {
    const file = join(t.dir, 'kept.yaml');
    writeFileSync(file, 'mine: 1\n');
    const r = await run(['init', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: [${USAGE}] ${file} exists: pass --force to overwrite it, or another --config <file>\n`);
    expect(readFileSync(file, 'utf8')).toBe('mine: 1\n');
  });

  it('a chain.endpoint that is no ws(s):// URL nor network name is refused with the configuration, before the key is loaded', async () => {
    const file = join(t.dir, 'http-endpoint.yaml');
    writeFileSync(
      file,
      [
        'netuid: 1',
        `wallet: { path: ${join(t.dir, 'no-wallets')} }`,
        'server: { executor_token: "a-long-enough-executor-token" }',
        'scoring:',
        '  challenges: [{ id: bounty, kind: bounty, alpha: 1 }]',
        '',
      ].join('\n'),
    );
    const cases: readonly (readonly [string, string])[] = [
      ['http://127.0.0.1:9933', 'an endpoint URL must be ws:// or wss://'],
      ['finny', 'not a network name (finney, test, local) nor a ws:// or wss:// URL'],
    ];
    for (const [endpoint, why] of cases) {
      const r = await run(['run', '--config', file, '--chain-endpoint', endpoint]);
      // Before: the key was loaded first (an encrypted one asks its password), so this was WALLET_KEYFILE_NOT_FOUND, exit 1.
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: [VALIDATOR_INVALID_CONFIG] invalid configuration: invalid chain endpoint: ${why}; set chain.endpoint (or --chain-endpoint) ` +
          `to the node's ws:// or wss:// URL, or finney, test or local (set by --chain-endpoint) at chain.endpoint (got "${endpoint}")\n`,
      );
    }
  });

  it('init into a folder that does not exist, or onto a folder: VALIDATOR_CONFIG_FILE naming the path, the reason and what to do, exit 2', async () => {
    const nested = join(t.dir, 'no-such-folder', 'validator.yaml');
    const missing = await run(['init', '--config', nested]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] cannot write the configuration file ${nested}: ENOENT (no such file or directory); ` +
        `create its folder ${join(t.dir, 'no-such-folder')} first, or give --config a path in a folder that exists at ${nested}\n`,
    );
    expect(existsSync(join(t.dir, 'no-such-folder'))).toBe(false);
    for (const args of [
      ['init', '--config', t.dir],
      ['init', '--config', t.dir, '--force'],
    ]) {
      const folder = await run(args);
      expect(folder.code).toBe(2);
      expect(folder.stderr).toBe(
        `error: [VALIDATOR_CONFIG_FILE] cannot write the configuration file ${t.dir}: it is a folder; ` +
          `give --config a file name, such as ${join(t.dir, 'validator.yaml')} at ${t.dir}\n`,
      );
    }
  });

  it('no command at all: the help on stderr, then the coded error naming the commands', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: subnet-validator');
    expect(r.stderr).toContain(`error: [${USAGE}] a command is required: init, run, demo`);
  });

  it('a configuration file that cannot be read: VALIDATOR_CONFIG_FILE with the OS reason, exit 2', async () => {
    const missing = join(t.dir, 'no-such-validator.yaml');
    const r = await run(['run', '--config', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: [VALIDATOR_CONFIG_FILE] cannot read the configuration file ${missing}: ENOENT (no such file or directory)`);
  });

  it('a configuration file that does not exist says how to make one; a folder given as the file says it is a folder', async () => {
    const missing = join(t.dir, 'validatr.yaml');
    const absent = await run(['run', '--config', missing]);
    expect(absent.code).toBe(2);
    expect(absent.stdout).toBe('');
    expect(absent.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] cannot read the configuration file ${missing}: ENOENT (no such file or directory); ` +
        `write one with subnet-validator init --config ${missing}, or give the file you meant to --config at ${missing}\n`,
    );
    const folder = await run(['run', '--config', t.dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] cannot read the configuration file ${t.dir}: EISDIR (illegal operation on a directory); ` +
        `it is a folder: give --config the YAML file itself (subnet-validator init --config <file> writes one) at ${t.dir}\n`,
    );
  });

  it('a configuration file that is not YAML names the file, the line and the column', async () => {
    const file = join(t.dir, 'broken.yaml');
    writeFileSync(file, 'netuid: 1\nserver:\n  port: 8091\n  port: 8092\n');
    const r = await run(['run', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] the configuration file ${file} is not valid YAML: Map keys must be unique at line 4, column 3; ` +
        `fix it there (subnet-validator init writes a valid one) at ${file}\n`,
    );
  });

  it('a configuration file whose YAML is not a mapping of sections says what it holds', async () => {
    const list = join(t.dir, 'list.yaml');
    writeFileSync(list, '- netuid: 1\n- scoring: {}\n');
    const r = await run(['run', '--config', list]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] the configuration file ${list} holds a list, not a mapping of sections (netuid: 1, scoring: …); ` +
        `write each section as a key at the top level, as subnet-validator init does at ${list}\n`,
    );
    const scalar = join(t.dir, 'scalar.yaml');
    writeFileSync(scalar, 'validator.yaml\n');
    const s = await run(['run', '--config', scalar]);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe(
      `error: [VALIDATOR_CONFIG_FILE] the configuration file ${scalar} holds a string, not a mapping of sections (netuid: 1, scoring: …); ` +
        `write each section as a key at the top level, as subnet-validator init does at ${scalar}\n`,
    );
  });

  it('run --help shows the default of every flag that has one, as the configuration resolves an absent key', async () => {
    const defaults = resolveConfig({ object: { netuid: 1, server: { executor_token: 'x'.repeat(16) }, scoring } });
    const r = await run(['run', '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    const database = defaults.database as { path?: string };
    for (const [flag, key, value] of [
      ['--host', 'server.host', defaults.server.host],
      ['--port', 'server.port', String(defaults.server.port)],
      ['--database-path', 'database.path', database.path],
      ['--chain-endpoint', 'chain.endpoint', defaults.chain.endpoint],
      ['--bundles-dir', 'bundles.dir', defaults.bundles.dir],
      ['--log-level', 'log.level', defaults.log.level],
    ] as const) {
      expect(help).toMatch(new RegExp(`${flag} <[a-z]+> [^(]*\\(${key.replace('.', '\\.')}; default: ${String(value).replace(/[./]/g, '\\$&')}\\)`));
    }
    expect(help).toContain('SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN');
    // The one flag without a default says it must be given (commander's help does not mark a required option).
    expect(help).toContain('-c, --config <file> configuration file, required (');
  });

  it('the program and every subcommand teach by example', async () => {
    for (const args of [['--help'], ['init', '--help'], ['run', '--help'], ['demo', '--help']]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      const examples = r.stdout.split('\nExamples:\n')[1];
      expect(examples, args.join(' ')).toBeDefined();
      const command = args.length === 1 ? undefined : args[0];
      const lines = (examples ?? '').split('\n').filter((line) => line.startsWith('  subnet-validator '));
      expect(lines.length, args.join(' ')).toBeGreaterThanOrEqual(2);
      if (command !== undefined) for (const line of lines) expect(line.startsWith(`  subnet-validator ${command}`), line).toBe(true);
    }
  });

  it('a mistyped required option is named as unknown, with the option meant, not as "required option not specified"', async () => {
    const typo = await run(['run', '--cofnig', 'validator.yaml']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`error: [${USAGE}] unknown option '--cofnig' (Did you mean --config?)`);
    expect(typo.stderr).not.toContain('not specified');
    const missing = await run(['run', '--port', '1']);
    expect(missing.stderr).toContain(`error: [${USAGE}] required option '-c, --config <file>' not specified`);
  });

  it('--version and -V print the package version on stdout and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('help with a mistyped command names the typo, not "a command is required"; help of a real command is its help', async () => {
    const r = await run(['help', 'rnu']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: [${USAGE}] unknown command 'rnu' (the commands: init, run, demo)`);
    expect(r.stderr).not.toContain('a command is required');
    const help = await run(['help', 'run']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: subnet-validator run');
  });

  it('--help still prints the help on stdout and exits 0, and names every exit code the CLI uses', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(
      /Exit codes: 0 [^;]+; 1 [^;]+; 2 [^;]*VALIDATOR_INVALID_CONFIG[^;]*VALIDATOR_EPOCH_RENUMBERING[^;]*VALIDATOR_HEAD_BEHIND_DATABASE[^;]*VALIDATOR_DATABASE_MISMATCH[^;]*VALIDATOR_USAGE[^;]*; 130 \(SIGINT\) or 143 \(SIGTERM\) the demo [^;]+; 141 [^.]*EPIPE/,
    );
    const sub = await run(['run', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--port <port>');
  });
});
