import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { isSubnetError } from '@subnet/core';

import { defaultConfigYaml, envOverlay, redactConfig, resolveConfig } from '../config.js';

function codeOf(fn: () => unknown): { code: string; path: unknown; message: string } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path, message: error.message };
    throw error;
  }
  throw new Error('expected an error');
}

describe('configuration', () => {
  it('the init file is commented YAML that validates, with every challenge kind and its share', () => {
    const text = defaultConfigYaml();
    expect(text.split('\n').filter((l) => l.trimStart().startsWith('#')).length).toBeGreaterThan(10);
    const config = resolveConfig({ text, env: { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice' } });
    // Challenges are kept in canonical order, by id (SPEC E).
    expect(config.scoring.challenges.map((c) => [c.kind, c.alpha])).toEqual([
      ['bounty', 0.1],
      ['sssa', 0.3],
      ['term_pass_rate', 0.2],
      ['workflow', 0.4],
    ]);
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.scoring.challenges.find((c) => c.kind === 'workflow')).toMatchObject({ weight_cap: 0.15 });
  });

  it('every value the init file writes is the default: leaving any section out resolves to the same values', () => {
    const env = { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice' };
    const written = parseYaml(defaultConfigYaml()) as Record<string, unknown>;
    const full = resolveConfig({ object: written, env }) as unknown as Record<string, unknown>;
    // netuid and scoring have no default: the file must name them.
    const sections = Object.keys(written).filter((key) => key !== 'netuid' && key !== 'scoring');
    expect(sections).toEqual(expect.arrayContaining(['wallet', 'server', 'database', 'chain', 'peers', 'bundles', 'log']));
    for (const section of sections) {
      const { [section]: _left, ...rest } = written;
      const defaults = resolveConfig({ object: rest, env }) as unknown as Record<string, unknown>;
      expect([section, defaults[section]]).toEqual([section, full[section]]);
    }
  });

  it('the problem count lists at most three other paths and how many more', () => {
    const server = (fields: string) => codeOf(() => resolveConfig({ text: `netuid: 1\nserver: { ${fields} }\nscoring: {}\n`, env: {} })).message;
    expect(server('port: "x", host: 5, body_limit_bytes: "y", request_timeout_ms: "z", headers_timeout_ms: "w"')).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration \(6 problems, the first shown; the others at [a-z_.]+, [a-z_.]+, [a-z_.]+, and 2 more\): /,
    );
    // Three others are all listed, with no "and 0 more".
    expect(server('port: "x", host: 5, body_limit_bytes: "y"')).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration \(4 problems, the first shown; the others at [a-z_.]+, [a-z_.]+, scoring\.challenges\): /,
    );
  });

  it('G.26: a headers deadline longer than the request deadline is refused at its key, naming both (Node would refuse the server)', () => {
    const env = { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice', SUBNET_VALIDATOR_SERVER__HEADERS_TIMEOUT_MS: '40000' };
    const bad = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env }));
    expect(bad.code).toBe('VALIDATOR_INVALID_CONFIG');
    expect(bad.path).toBe('server.headers_timeout_ms');
    expect(bad.message).toContain(
      'the headers deadline 40000 ms is longer than server.request_timeout_ms = 30000, the deadline of the whole request (headers and body); set it at most that',
    );
    expect(bad.message).toContain('SUBNET_VALIDATOR_SERVER__HEADERS_TIMEOUT_MS');
    // Equal deadlines are Node's own limit and are kept.
    const equal = resolveConfig({ text: defaultConfigYaml(), env: { ...env, SUBNET_VALIDATOR_SERVER__HEADERS_TIMEOUT_MS: '30000' } });
    expect([equal.server.headers_timeout_ms, equal.server.request_timeout_ms]).toEqual([30000, 30000]);
  });

  it('environment overrides the file and flags override the environment', () => {
    const text = defaultConfigYaml();
    const config = resolveConfig({ text, env: { SUBNET_VALIDATOR_SERVER__PORT: '9100', SUBNET_VALIDATOR_CHAIN__DRY_RUN: 'true' }, flags: { port: 9200 } });
    expect(config.server.port).toBe(9200);
    expect(config.chain.dry_run).toBe(true);
    expect(envOverlay({ SUBNET_VALIDATOR_SERVER__PORT: '9100', OTHER: 'x' })).toEqual({ server: { port: 9100 } });
  });

  it('a bad value stops start-up with a message naming it', () => {
    const bad = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SERVER__PORT: 'eighty' } }));
    expect(bad.code).toBe('VALIDATOR_INVALID_CONFIG');
    expect(bad.path).toBe('server.port');
    expect(bad.message).toContain('server.port');
    expect(bad.message).toContain('eighty');
    const alpha = codeOf(() => resolveConfig({ object: { netuid: 1, validator: {}, scoring: { challenges: [{ id: 'b', kind: 'bounty', alpha: 1.5 }] } } }));
    expect(alpha.path).toBe('scoring.challenges[0].alpha');
    const unknown = codeOf(() =>
      resolveConfig({ object: { netuid: 1, validator: {}, scoring: { challenges: [{ id: 'b', kind: 'bounty', alpha: 1 }] }, servr: {} } }),
    );
    expect(unknown.code).toBe('VALIDATOR_INVALID_CONFIG');
    expect(codeOf(() => resolveConfig({ text: 'netuid: [1' })).code).toBe('VALIDATOR_CONFIG_FILE');
  });

  it('a missing section says it is missing, and a file with several problems says how many and where the others are', () => {
    const missing = codeOf(() => resolveConfig({ text: 'netuid: 1\n', env: {} }));
    expect(missing.path).toBe('scoring');
    expect(missing.message).toBe('[VALIDATOR_INVALID_CONFIG] invalid configuration: missing: a section is required here at scoring (got undefined)');
    const several = codeOf(() => resolveConfig({ text: 'netuid: 1\nserver: { port: "x", host: 5 }\nscoring: {}\n', env: {} }));
    expect(several.path).toBe('server.host');
    expect(several.message).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration \(3 problems, the first shown; the others at server\.port, scoring\.challenges\): .* at server\.host/,
    );
  });

  it('an empty file (nothing, whitespace, comments, a document marker) is completed by the environment, else its error leads with "is empty", then each missing setting with its key and variable', () => {
    const scoringSection = (parseYaml(defaultConfigYaml()) as { scoring: unknown }).scoring;
    const config = resolveConfig({
      text: '# every setting comes from the environment\n',
      env: { SUBNET_VALIDATOR_NETUID: '7', SUBNET_VALIDATOR_SCORING: JSON.stringify(scoringSection), SUBNET_VALIDATOR_SERVER__PORT: '9000' },
      file: 'v.yaml',
    });
    expect([config.netuid, config.server.port, config.scoring.challenges.map((c) => c.kind)]).toEqual([
      7,
      9000,
      ['bounty', 'sssa', 'term_pass_rate', 'workflow'],
    ]);
    const netuid = 'netuid (a number: write netuid: <number> in the file, or set SUBNET_VALIDATOR_NETUID)';
    const scoring =
      'scoring (a section: write the scoring section in the file (subnet-validator init writes one with every challenge), or set SUBNET_VALIDATOR_SCORING to it as YAML or JSON)';
    const init = '; subnet-validator init --config /etc/subnet/validator.yaml --force writes a file with every section to edit';
    for (const text of ['', '  \n\n', '# written later\n\n# by hand\n', '---\n']) {
      const error = codeOf(() => resolveConfig({ text, env: {}, file: '/etc/subnet/validator.yaml' }));
      expect([JSON.stringify(text), error.code, error.message]).toEqual([
        JSON.stringify(text),
        'VALIDATOR_INVALID_CONFIG',
        `[VALIDATOR_INVALID_CONFIG] the config file /etc/subnet/validator.yaml is empty, and neither the environment nor a flag sets the 2 settings it needs: ${netuid}; ${scoring}${init}`,
      ]);
    }
    // What the environment sets is not listed: only what is still missing.
    expect(codeOf(() => resolveConfig({ text: '', env: { SUBNET_VALIDATOR_NETUID: '7' }, file: '/etc/subnet/validator.yaml' })).message).toBe(
      `[VALIDATOR_INVALID_CONFIG] the config file /etc/subnet/validator.yaml is empty, and neither the environment nor a flag sets the setting it needs: ${scoring}${init}`,
    );
    // A file that says something is not empty: its missing section is told as before.
    expect(codeOf(() => resolveConfig({ text: 'netuid: 1\n', env: {}, file: 'v.yaml' })).message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration: missing: a section is required here at scoring (got undefined)',
    );
    // An empty file with a bad value from the environment is about that value, not the file.
    expect(
      codeOf(() =>
        resolveConfig({
          text: '',
          env: { SUBNET_VALIDATOR_NETUID: 'x', SUBNET_VALIDATOR_SCORING: JSON.stringify(scoringSection) },
          file: 'v.yaml',
        }),
      ).message,
    ).toMatch(/^\[VALIDATOR_INVALID_CONFIG\] invalid configuration: .* \(set by the environment variable SUBNET_VALIDATOR_NETUID\) at netuid/);
  });

  it('a misspelt key suggests the key it is close to, at any level', () => {
    const typo = codeOf(() => resolveConfig({ text: defaultConfigYaml().replace('  port: 8091', '  prot: 8091'), env: {} }));
    expect(typo.path).toBe('server');
    expect(typo.message).toMatch(/^\[VALIDATOR_INVALID_CONFIG\] invalid configuration: Unrecognized key: "prot" \(did you mean "port"\?\) at server \(got /);
    const chain = codeOf(() => resolveConfig({ text: defaultConfigYaml().replace('  poll_ms: 1000', '  pol_ms: 1000'), env: {} }));
    expect(chain.message).toContain('Unrecognized key: "pol_ms" (did you mean "poll_ms"?) at chain');
    const challenge = codeOf(() => resolveConfig({ text: defaultConfigYaml().replace('      total_tasks: 50', '      totl_tasks: 50'), env: {} }));
    // The scoring section passes zod's sentence on as a custom issue, after the missing key the slip leaves.
    expect(challenge.message).toContain('the others at scoring.challenges[2].totl_tasks (an unknown key; did you mean "total_tasks"?)');
  });

  it('an unknown key set by an environment variable names the variable; one underscore where two belong says so', () => {
    const typo = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SERVER__PROT: '9000' } }));
    expect(typo.message).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration: Unrecognized key: "prot" \(did you mean SUBNET_VALIDATOR_SERVER__PORT\?\) \(set by the environment variable SUBNET_VALIDATOR_SERVER__PROT\) at server \(got /,
    );
    // A misspelt section in a variable's name: the variable is named (not a key of the file), with the one meant, and
    // the value shown is the variable's, not the whole configuration.
    const section = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SERVR__PORT: '9000' } }));
    expect(section.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration: Unrecognized key: "servr" (did you mean SUBNET_VALIDATOR_SERVER__PORT?) (set by the environment variable SUBNET_VALIDATOR_SERVR__PORT) at (root) (got {"port":9000})',
    );
    expect(section.path).toBe('');
    const single = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SERVER_PORT: '9000' } }));
    expect(single.message).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration: Unrecognized key: "server_port" \(did you mean SUBNET_VALIDATOR_SERVER__PORT\? two underscores separate a section from its key\) \(set by the environment variable SUBNET_VALIDATOR_SERVER_PORT\) at \(root\) \(got /,
    );
    const keyWithUnderscore = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_CHAIN_POLL_MS: '500' } }));
    expect(keyWithUnderscore.message).toContain('(did you mean SUBNET_VALIDATOR_CHAIN__POLL_MS? two underscores separate a section from its key)');
    // The scoring pipeline is read through a transform whose keys this walk cannot see: the variable is still named.
    const scoring = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SCORING__PIPELINE_WEIGHT_CAP: '0.4' } }));
    expect(scoring.message).toContain('(set by the environment variable SUBNET_VALIDATOR_SCORING__PIPELINE_WEIGHT_CAP) at scoring');
  });

  it('a misspelt top-level key is named in the list of the other problems, not an empty path', () => {
    const text = `nettuid: 1\nscoring:\n  challenges: [{ id: b, kind: bounty, alpha: 1 }]\n`;
    const bad = codeOf(() => resolveConfig({ text, env: {} }));
    expect(bad.path).toBe('netuid');
    expect(bad.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration (2 problems, the first shown; the others at nettuid (an unknown key; did you mean "netuid"?)): ' +
        'missing: a number is required here at netuid (got undefined)',
    );
    const unknownOnly = codeOf(() => resolveConfig({ text: `netuid: 1\nbogus: 1\nmore: 2\n`, env: {} }));
    expect(unknownOnly.message).toMatch(/the others at bogus \(an unknown key\), more \(an unknown key\)\): missing: a section is required here at scoring/);
  });

  it('a `__proto__` or `constructor` key in the file is a key like any other: refused as unknown, at any level, whatever the overlays', () => {
    const text = defaultConfigYaml();
    const env = { SUBNET_VALIDATOR_SERVER__PORT: '9000', SUBNET_VALIDATOR_CHAIN__ENDPOINT: 'ws://127.0.0.1:9944' };
    const cases: [string, string, string][] = [
      [`${text}\n__proto__:\n  netuid: 3\n`, '(root)', '__proto__'],
      [text.replace('server:\n', 'server:\n  __proto__:\n    port: 1\n'), 'server', '__proto__'],
      [text.replace('chain:\n', 'chain:\n  constructor: 1\n'), 'chain', 'constructor'],
    ];
    for (const [file, path, key] of cases) {
      for (const overlay of [{}, env]) {
        const bad = codeOf(() => resolveConfig({ text: file, env: overlay, flags: { dryRun: true } }));
        expect([bad.code, bad.message.includes(`"${key}" at ${path}`)], `${key} at ${path}`).toEqual(['VALIDATOR_INVALID_CONFIG', true]);
      }
    }
  });

  it('peers: none by default; URLs from the environment; a URL with credentials, a query or another scheme, or too many attempts, stops start-up', () => {
    const text = defaultConfigYaml();
    expect(resolveConfig({ text }).peers).toEqual({ urls: [], attempts: 4, backoff_ms: 500, timeout_ms: 10_000 });
    const env = { SUBNET_VALIDATOR_PEERS__URLS: '[http://10.0.0.2:8091, https://peer.example/validator]' };
    expect(resolveConfig({ text, env }).peers.urls).toEqual(['http://10.0.0.2:8091', 'https://peer.example/validator']);
    for (const url of ['http://user:pw@10.0.0.2:8091', 'http://10.0.0.2:8091/?token=x', 'ws://10.0.0.2:8091', 'not a url']) {
      const bad = codeOf(() => resolveConfig({ text, env: { SUBNET_VALIDATOR_PEERS__URLS: `[${url}]` } }));
      expect([bad.code, bad.path], url).toEqual(['VALIDATOR_INVALID_CONFIG', 'peers.urls[0]']);
      expect(bad.message).not.toContain('pw@');
    }
    expect(codeOf(() => resolveConfig({ text, env: { SUBNET_VALIDATOR_PEERS__ATTEMPTS: '11' } })).path).toBe('peers.attempts');
  });

  it('never prints secrets: a bad database URL or token is redacted, and redactConfig hides them', () => {
    const bad = codeOf(() => resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_DATABASE__URL: 'mysql://u:hunter2@h/db' } }));
    expect(bad.path).toBe('database.url');
    expect(bad.message).not.toContain('hunter2');
    const config = resolveConfig({
      text: defaultConfigYaml(),
      env: {
        SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Secret',
        SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-token-token-1',
        SUBNET_VALIDATOR_DATABASE__URL: 'postgresql://u:hunter2@h/db',
      },
    });
    const text = JSON.stringify(redactConfig(config));
    expect(text).not.toContain('//Secret');
    expect(text).not.toContain('token-token-token-1');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('postgresql://***@h/db');
  });

  it('never prints secrets when the invalid value is a whole section or the whole file (an unknown key beside a token)', () => {
    const env = {
      SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-token-token-1',
      SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Secret',
      SUBNET_VALIDATOR_DATABASE__URL: 'postgresql://u:hunter2@h/db',
    };
    const cases: [string, string][] = [
      [`${defaultConfigYaml()}\nbogus: 1\n`, ''], // the whole file
      [defaultConfigYaml().replace('server:\n', 'server:\n  bogus: 1\n'), 'server'],
      [defaultConfigYaml().replace('validator:\n', 'validator:\n  bogus: 1\n'), 'validator'],
      [defaultConfigYaml().replace('database:\n', 'database:\n  bogus: 1\n'), 'database'],
    ];
    for (const [text, path] of cases) {
      let caught: unknown;
      try {
        resolveConfig({ text, env });
      } catch (error) {
        caught = error;
      }
      if (!isSubnetError(caught)) throw new Error(`expected a coded error for ${path}`);
      expect(caught.code).toBe('VALIDATOR_INVALID_CONFIG');
      expect(caught.context.path).toBe(path);
      const shown = `${caught.message} ${JSON.stringify(caught.context)}`;
      expect(shown).toContain('bogus');
      for (const secret of ['token-token-token-1', '//Secret', 'hunter2']) expect(shown).not.toContain(secret);
    }
    // A misspelt secret key: its own value is what an unknown key shows, and it stays hidden.
    const misspelt = codeOf(() => resolveConfig({ text: defaultConfigYaml().replace('server:\n', "server:\n  executor_tokn: 'typo-token-typo-token'\n") }));
    expect(misspelt.message).toContain('Unrecognized key: "executor_tokn" (did you mean "executor_token"?) at server (got "[redacted]")');
    expect(misspelt.message).not.toContain('typo-token-typo-token');
  });

  it('an invalid value set by a flag or an environment variable names it; an empty variable is said to read as null', () => {
    const text = defaultConfigYaml();
    const fail = (env: Record<string, string>, flags = {}) => {
      try {
        resolveConfig({ text, env, flags });
      } catch (error) {
        if (isSubnetError(error)) return { message: error.message, source: error.context.source };
      }
      throw new Error('expected an error');
    };
    expect(fail({ SUBNET_VALIDATOR_CHAIN__POLL_MS: '1s' })).toEqual({
      message:
        '[VALIDATOR_INVALID_CONFIG] invalid configuration: Invalid input: expected number, received string (set by the environment variable ' +
        'SUBNET_VALIDATOR_CHAIN__POLL_MS) at chain.poll_ms (got "1s")',
      source: 'SUBNET_VALIDATOR_CHAIN__POLL_MS',
    });
    expect(fail({ SUBNET_VALIDATOR_WALLET__PASSWORD_FILE: '' })).toEqual({
      message:
        '[VALIDATOR_INVALID_CONFIG] invalid configuration: Invalid input: expected string, received null (set by the environment variable ' +
        'SUBNET_VALIDATOR_WALLET__PASSWORD_FILE, which is empty: an empty value reads as YAML null; unset it or give it a value) at wallet.password_file (got null)',
      source: 'SUBNET_VALIDATOR_WALLET__PASSWORD_FILE',
    });
    // The flag is above the environment: it is named even when a variable sets the same key.
    expect(fail({ SUBNET_VALIDATOR_LOG__LEVEL: 'info' }, { logLevel: 'loud' }).source).toBe('--log-level');
    expect(fail({ BT_WALLET_NAME: 'validator', SUBNET_VALIDATOR_WALLET__NAME: '' }).source).toBe('SUBNET_VALIDATOR_WALLET__NAME');
    // A value from the file names no source, as before.
    const fromFile = (() => {
      try {
        resolveConfig({ text: text.replace('poll_ms: 1000', 'poll_ms: soon') });
      } catch (error) {
        if (isSubnetError(error)) return error;
      }
      throw new Error('expected an error');
    })();
    expect(fromFile.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration: Invalid input: expected number, received string at chain.poll_ms (got "soon")',
    );
    expect(fromFile.context.source).toBeUndefined();
  });

  it('redactConfig marks only the secrets that are set: an unset key URI or executor token stays absent', () => {
    const config = resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice' } });
    expect(config.server.executor_token).toBeUndefined();
    const redacted = redactConfig(config) as { server: { executor_token?: string }; validator: { hotkey_uri?: string } };
    expect(redacted.server.executor_token).toBeUndefined();
    expect(redacted.validator.hotkey_uri).toBe('[redacted]');
    const withToken = resolveConfig({ text: defaultConfigYaml(), env: { SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'tok-0123456789abcdef' } });
    expect((redactConfig(withToken) as typeof redacted).server.executor_token).toBe('[redacted]');
    expect((redactConfig(withToken) as typeof redacted).validator.hotkey_uri).toBeUndefined();
  });

  it('redactConfig hides the query form of URL credentials too (node-postgres reads ?password=)', () => {
    const config = resolveConfig({
      text: defaultConfigYaml(),
      env: {
        SUBNET_VALIDATOR_DATABASE__URL: 'postgresql://h:5432/db?sslmode=require&password=hunter2&sslpassword=hunter3',
        SUBNET_VALIDATOR_CHAIN__ENDPOINT: 'wss://node.example/ws?apikey=hunter4',
      },
    });
    const text = JSON.stringify(redactConfig(config));
    expect(text).not.toMatch(/hunter/);
    expect(text).toContain('postgresql://h:5432/db?sslmode=require&password=***&sslpassword=***');
    expect(text).toContain('wss://node.example/ws?apikey=***');
  });
});

describe('G.27: numbers in the file and the SUBNET_VALIDATOR_ variables are written in decimal', () => {
  const ALICE = { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice' };
  const refusal = (fn: () => unknown): { code: string; message: string; context: Record<string, unknown> } => {
    try {
      fn();
    } catch (error) {
      if (isSubnetError(error)) return { code: error.code, message: error.message, context: error.context };
      throw error;
    }
    throw new Error('expected an error');
  };
  /** The init file with one line changed, and that line's number (1-based). */
  const fileWith = (from: string, to: string): { text: string; line: number } => {
    const lines = defaultConfigYaml().split('\n');
    const line = lines.findIndex((l) => l.startsWith(from));
    expect(line).toBeGreaterThanOrEqual(0);
    lines[line] = lines[line]!.replace(from, to);
    return { text: lines.join('\n'), line: line + 1 };
  };

  it.each([
    ['0x1f9b', 'is written with a 0x prefix (write 8091)'],
    ['0o17', 'is written with a 0o prefix (write 15)'],
    ['8.091e3', 'is written with an exponent (write 8091)'],
    ['8091.0', 'has a fraction (write 8091)'],
    ['+8091', 'has a plus sign (write 8091)'],
    ['08091', 'has a leading zero (write 8091)'],
  ])('an integer setting written %s in the file is refused, naming the key, the text, what to write and the line', (written, problem) => {
    const { text, line } = fileWith('  port: 8091', `  port: ${written}`);
    const bad = refusal(() => resolveConfig({ text, env: ALICE, file: 'validator.yaml' }));
    expect(bad.code).toBe('VALIDATOR_INVALID_CONFIG');
    expect(bad.message).toBe(
      `[VALIDATOR_INVALID_CONFIG] invalid configuration: "${written}" ${problem}; an integer setting takes decimal digits only, as the command-line flags do ` +
        `(line ${line} of the configuration file validator.yaml) at server.port (got "${written}")`,
    );
    expect(bad.context).toMatchObject({ path: 'server.port', value: written });
  });

  it('an integer setting written 0x1f9b, 1e3 or 0o17 in a variable is refused, naming the variable; each one is listed, in the order of the file', () => {
    const bad = refusal(() =>
      resolveConfig({
        text: defaultConfigYaml(),
        env: { ...ALICE, SUBNET_VALIDATOR_SERVER__PORT: '0x1f9b', SUBNET_VALIDATOR_CHAIN__POLL_MS: '1e3', SUBNET_VALIDATOR_SERVER__MAX_CONNECTIONS: '0o17' },
      }),
    );
    expect(bad.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration (3 problems, the first shown; the others at server.max_connections, chain.poll_ms): ' +
        '"0x1f9b" is written with a 0x prefix (write 8091); an integer setting takes decimal digits only, as the command-line flags do ' +
        '(set by the environment variable SUBNET_VALIDATOR_SERVER__PORT) at server.port (got "0x1f9b")',
    );
    expect(bad.context).toMatchObject({ path: 'server.port', value: '0x1f9b', source: 'SUBNET_VALIDATOR_SERVER__PORT' });
    expect(bad.context.issues).toEqual([
      'server.port: "0x1f9b" is written with a 0x prefix (write 8091); decimal digits only (set by the environment variable SUBNET_VALIDATOR_SERVER__PORT)',
      'server.max_connections: "0o17" is written with a 0o prefix (write 15); decimal digits only (set by the environment variable SUBNET_VALIDATOR_SERVER__MAX_CONNECTIONS)',
      'chain.poll_ms: "1e3" is written with an exponent (write 1000); decimal digits only (set by the environment variable SUBNET_VALIDATOR_CHAIN__POLL_MS)',
    ]);
  });

  it('a variable holding a section as YAML is judged key by key; the scoring section by its own schemas', () => {
    const scoring = 'challenges: [{ id: term, kind: term_pass_rate, alpha: 1, total_tasks: 5e1 }]';
    const bad = refusal(() => resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SCORING: scoring } }));
    expect(bad.message).toMatch(
      /^\[VALIDATOR_INVALID_CONFIG\] invalid configuration: "5e1" is written with an exponent \(write 50\); an integer setting .* \(set by the environment variable SUBNET_VALIDATOR_SCORING\) at scoring\.challenges\[0\]\.total_tasks \(got "5e1"\)$/,
    );
    // The pipeline's integers are @subnet/aggregation's.
    const pipeline = refusal(() => resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SCORING__PIPELINE__MIN_VALIDATORS: '3.0' } }));
    expect(pipeline.context).toMatchObject({ path: 'scoring.pipeline.min_validators', value: '3.0' });
  });

  it('G.29.c: an integer past 2^53 in the file is one refusal naming the key, the text as written, the line and the largest value the setting takes', () => {
    const { text, line } = fileWith('  port: 8091', '  port: 9007199254740993');
    const bad = refusal(() => resolveConfig({ text, env: ALICE, file: 'validator.yaml' }));
    expect(bad.code).toBe('VALIDATOR_INVALID_CONFIG');
    expect(bad.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration: "9007199254740993" is above 65535, the largest value this setting takes; ' +
        `an integer is read exactly only up to 2^53 - 1 (YAML reads this one as 9007199254740992) (line ${line} of the configuration file validator.yaml) ` +
        'at server.port (got "9007199254740993")',
    );
    // One issue: the schema told two of the rounded number, the first with a bound (2^53 - 1) that is not the setting's.
    expect(bad.context).toEqual({
      path: 'server.port',
      value: '9007199254740993',
      issues: [
        `server.port: "9007199254740993" is above 65535, the largest value this setting takes; read exactly only up to 2^53 - 1 (line ${line} of the configuration file validator.yaml)`,
      ],
    });
  });

  it("G.29.c: in a variable too, the scoring pipeline's by its own bound, and one below -2^53 by the smallest value", () => {
    const above = refusal(() =>
      resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SCORING__PIPELINE__MIN_VALIDATORS: '9007199254740992' } }),
    );
    expect(above.message).toBe(
      '[VALIDATOR_INVALID_CONFIG] invalid configuration: "9007199254740992" is above 65535, the largest value this setting takes; ' +
        'an integer is read exactly only up to 2^53 - 1 (YAML reads this one as 9007199254740992) ' +
        '(set by the environment variable SUBNET_VALIDATOR_SCORING__PIPELINE__MIN_VALIDATORS) at scoring.pipeline.min_validators (got "9007199254740992")',
    );
    expect(above.context).toMatchObject({ source: 'SUBNET_VALIDATOR_SCORING__PIPELINE__MIN_VALIDATORS', issues: [expect.any(String)] });
    const below = refusal(() => resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_CHAIN__POLL_MS: '-99999999999999999999' } }));
    expect(below.message).toContain('"-99999999999999999999" is below 10, the smallest value this setting takes;');
    expect(below.context).toMatchObject({ path: 'chain.poll_ms', value: '-99999999999999999999', issues: [expect.any(String)] });
    // 2^53 - 1 is read exactly: the schema tells its range, as for any number within it.
    const safe = refusal(() => resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SERVER__PORT: '9007199254740991' } }));
    expect(safe.context).toMatchObject({ path: 'server.port', value: 9007199254740991, issues: ['server.port: Too big: expected number to be <=65535'] });
  });

  it('a decimal setting keeps every decimal spelling YAML reads, but no 0x or 0o prefix', () => {
    for (const written of ['0.4', '.4', '4e-1', '+0.4']) {
      const config = resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SCORING__PIPELINE__WEIGHT_CAP: written } });
      expect([written, config.scoring.pipeline.weight_cap]).toEqual([written, 0.4]);
    }
    const bad = refusal(() => resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SCORING__PIPELINE__WEIGHT_CAP: '0x1' } }));
    expect(bad.message).toContain('"0x1" is written with a 0x prefix (write 1); a number setting takes a decimal spelling');
  });

  it('plain decimal integers are kept; a spelling that a later source replaces is not judged', () => {
    const config = resolveConfig({ text: defaultConfigYaml(), env: { ...ALICE, SUBNET_VALIDATOR_SERVER__PORT: '9000', SUBNET_VALIDATOR_NETUID: '0' } });
    expect([config.server.port, config.netuid]).toEqual([9000, 0]);
    const { text } = fileWith('  port: 8091', '  port: 0x1f9b');
    expect(resolveConfig({ text, env: { ...ALICE, SUBNET_VALIDATOR_SERVER__PORT: '8092' } }).server.port).toBe(8092);
    expect(resolveConfig({ text, env: ALICE, flags: { port: 8093 } }).server.port).toBe(8093);
  });

  it('a secret that YAML reads as a hexadecimal number is left to the schema, which hides it', () => {
    const { text } = fileWith('  port: 8091', '  port: 8091\n  executor_token: 0x1234567890abcdef1234');
    const bad = refusal(() => resolveConfig({ text, env: ALICE }));
    expect(bad.message).toContain('expected string, received number at server.executor_token (got "[redacted]")');
    expect(bad.message).not.toContain('1234567890');
  });
});
