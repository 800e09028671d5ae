import { readFileSync } from 'node:fs';

// The subpaths, not the package roots: they load no @polkadot module, so `run` refuses a bad configuration in a
// fraction of a second instead of after the 2 s the roots (signing, the chain client) take to load.
import { pipelineConfigSchema } from '@subnet/aggregation';
import { epochConfigSchema, parseEpochConfig } from '@subnet/bundle/epoch-config';
import type { EpochConfig } from '@subnet/bundle/epoch-config';
import { resolveEndpoints } from '@subnet/chain/networks';
import { describeSystemError, formatPath, isSubnetError, redactUrl, SubnetError } from '@subnet/core';
import { parse as parseYaml, parseDocument } from 'yaml';
import { z } from 'zod';

import { inputLimitsSchema } from './input-limits.js';
import { numberSpellingProblem, unsafeIntegerProblem, writtenNumbers } from './config-numbers.js';
import type { WrittenNumber } from './config-numbers.js';
import { checkDispatchConfig } from './dispatch/check-dispatch-config.js';
import { dispatchConfigSchema, redactDispatch } from './dispatch/dispatch-config.js';
import { VALIDATOR_ERROR_CODES } from './errors.js';
import { hotkeySpellingProblem } from './hotkey-spelling.js';
import { nearestKey } from '@subnet/cli-support';

/** Environment variables that configure the validator start with this prefix; `__` separates levels. */
export const ENV_PREFIX = 'SUBNET_VALIDATOR_';

const port = z.number().int().min(0).max(65535);

/** The largest `server.body_limit_bytes` (64 MiB). */
export const MAX_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/** The largest `server.request_timeout_ms`, `server.headers_timeout_ms` and `server.keep_alive_timeout_ms` (10 minutes). */
export const MAX_HTTP_TIMEOUT_MS = 600_000;

/** The largest `server.signer_rate_per_minute` and `server.signer_burst`. */
export const MAX_SIGNER_RATE = 1_000_000;

/** A peer validator's base URL: http(s), no credentials (it is logged), no query. */
const peerUrlSchema = z.string().refine(
  (text) => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
    } catch {
      return false;
    }
  },
  { message: 'a peer URL is http:// or https:// with a host, without credentials, query or fragment' },
);

/** A peer validator with its hotkey: requests to it are bound to it (`x-subnet-receiver`). */
const peerTargetSchema = z.strictObject({
  url: peerUrlSchema,
  hotkey: z.string().superRefine((text, ctx) => {
    const problem = hotkeySpellingProblem(text);
    if (problem === undefined) return;
    ctx.addIssue({
      code: 'custom',
      message:
        problem.kind === 'not_ss58'
          ? `a peer's hotkey is an SS58 address of a 32-byte key (${problem.why})`
          : `a peer's hotkey is spelled with prefix 42, as the metagraph lists it: ${problem.canonical}, not an address with ${problem.found}`,
    });
  }),
});

/** The validator's configuration file schema (snake_case YAML or JSON). */
export const validatorConfigSchema = z.strictObject({
  netuid: z.number().int().min(0).max(65535),
  validator: z
    .strictObject({
      /** Secret key URI (`//Alice`, a mnemonic, a 0x seed) for dev chains; when set it replaces the wallet. Prefer the environment variable. */
      hotkey_uri: z.string().min(1).optional(),
    })
    .prefault({}),
  /** The btcli wallet whose hotkey signs weights and bundles (`<path>/<name>/hotkeys/<hotkey>`). */
  wallet: z
    .strictObject({
      name: z.string().min(1).default('default'),
      hotkey: z.string().min(1).default('default'),
      path: z.string().min(1).default('~/.bittensor/wallets'),
      /** File holding the password of an encrypted hotkey (container secrets); else btwallet's BT_PW_<PATH> variable, else a TTY prompt. */
      password_file: z.string().min(1).optional(),
    })
    .prefault({}),
  server: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: port.default(8091),
      body_limit_bytes: z
        .number()
        .int()
        .min(1024)
        .max(MAX_BODY_LIMIT_BYTES)
        .default(1024 * 1024),
      /** Bearer token of the executor endpoints (secret; prefer the environment variable). */
      executor_token: z.string().min(16, 'the executor token needs at least 16 characters').optional(),
      max_clock_skew_seconds: z.number().int().min(1).max(3600).default(60),
      /** Refuse signed requests that do not name this validator in `x-subnet-receiver` (replayable elsewhere). */
      require_receiver: z.boolean().default(false),
      /** Whole request (headers and body) deadline; a slowly sent body gets 408 and is closed. */
      request_timeout_ms: z.number().int().min(100).max(MAX_HTTP_TIMEOUT_MS).default(30_000),
      /** Headers deadline from the connection (or the previous request on it); at most `request_timeout_ms`. */
      headers_timeout_ms: z.number().int().min(100).max(MAX_HTTP_TIMEOUT_MS).default(10_000),
      /** Idle keep-alive sockets are closed after this. */
      keep_alive_timeout_ms: z.number().int().min(100).max(MAX_HTTP_TIMEOUT_MS).default(5_000),
      max_connections: z.number().int().min(1).max(1_000_000).default(1024),
      /** Open connections from one source (an IPv4 address, an IPv6 /64); behind a proxy, raise it to max_connections. */
      max_connections_per_source: z.number().int().min(1).max(1_000_000).default(128),
      /** Per signer hotkey on POST /v1/sssa and /v1/peer-scores: average rate and burst (token bucket). */
      signer_rate_per_minute: z.number().int().min(1).max(MAX_SIGNER_RATE).default(120),
      signer_burst: z.number().int().min(1).max(MAX_SIGNER_RATE).default(30),
      /** Shape limits of every POST body (depth, list, string, keys), at most core's defaults. */
      input_limits: inputLimitsSchema,
    })
    // Both deadlines run from the start of a message; Node refuses to create a server whose headers deadline is the
    // longer (ERR_OUT_OF_RANGE), and a 408 names the headers deadline for any request whose headers were incomplete.
    .superRefine((server, ctx) => {
      if (server.headers_timeout_ms > server.request_timeout_ms)
        ctx.addIssue({
          code: 'custom',
          path: ['headers_timeout_ms'],
          message: `the headers deadline ${server.headers_timeout_ms} ms is longer than server.request_timeout_ms = ${server.request_timeout_ms}, the deadline of the whole request (headers and body); set it at most that`,
        });
    })
    .prefault({}),
  database: z
    .strictObject({
      path: z.string().min(1).default('./validator.sqlite'),
      url: z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'a PostgreSQL URL starts with postgres:// or postgresql://')
        .optional(),
    })
    .prefault({}),
  chain: z
    .strictObject({
      // Checked with the configuration, by the chain package's own rule, so a wrong endpoint is refused before the key
      // is loaded (an encrypted one asks its password first), not after it, when the connection is tried.
      endpoint: z
        .string()
        .min(1)
        .default('ws://127.0.0.1:9944')
        .superRefine((value, ctx) => {
          try {
            resolveEndpoints(value);
          } catch (error) {
            if (!isSubnetError(error)) throw error;
            const why = error.message.replace(/^\[[A-Z_]+\] (?:InvalidInput: )?/, '').replace(/ at network.*$/s, '');
            ctx.addIssue({
              code: 'custom',
              message: `invalid chain endpoint: ${why}; set chain.endpoint (or --chain-endpoint) to the node's ws:// or wss:// URL, or finney, test or local`,
            });
          }
        }),
      /** Blocks per epoch; default: the length the database records (epoch-numbering.ts), else the subnet's tempo read from the chain. */
      epoch_length: z.number().int().min(1).max(1_000_000).optional(),
      poll_ms: z.number().int().min(10).max(60_000).default(1000),
      /** `/readyz` fails when the head block has not changed for this long (ms). */
      stale_head_ms: z.number().int().min(100).max(3_600_000).default(60_000),
      dry_run: z.boolean().default(false),
      /**
       * `inBlock`: the close returns once a block holds the weights; `finalized`: it also waits for finality to reach
       * that block. Either way the bundle names a final block: one finality has not reached is recorded by
       * reconciliation once it is final (docs/spec.md G.8).
       */
      wait: z.enum(['inBlock', 'finalized']).default('inBlock'),
      /** Where commit-reveal salts wait for their reveal (secret until revealed: keep out of bundles.dir). */
      commit_store: z.string().min(1).default('./commits.json'),
      /**
       * Mortal era of weight extrinsics (blocks, a power of two). A submission interrupted by a crash is known
       * not to have landed once its era is over, and is then submitted again if its epoch still allows.
       */
      era_period: z
        .number()
        .int()
        .min(4)
        .max(65_536)
        .refine((n) => (n & (n - 1)) === 0, 'a mortal era is a power of two')
        .default(64),
    })
    .prefault({}),
  /** High availability on PostgreSQL: several instances, one leader holding a fenced lease. */
  ha: z
    .strictObject({
      /** Lease time to live (ms); default max(1500, 1.5 × chain.poll_ms), so a standby takes over within two polls. */
      lease_ttl_ms: z.number().int().min(100).max(600_000).optional(),
    })
    .prefault({}),
  /** Peer validators this one sends its own per-miner scores to after each close (peer-exchange.ts). */
  peers: z
    .strictObject({
      /**
       * Base URLs (`http://10.0.0.2:8091`), or `{ url, hotkey }` with the peer's hotkey (SS58, prefix 42): then each
       * request is bound to that peer (`x-subnet-receiver`) and cannot be replayed to another validator.
       */
      urls: z
        .array(z.union([peerUrlSchema, peerTargetSchema]))
        .max(256)
        .default([]),
      /** Attempts per peer and epoch document (unreachable, 408, 429, 5xx are retried; other 4xx are final). */
      attempts: z.number().int().min(1).max(10).default(4),
      /** First backoff, doubled after each failed attempt. */
      backoff_ms: z.number().int().min(10).max(60_000).default(500),
      /** Time limit of one attempt. */
      timeout_ms: z.number().int().min(100).max(120_000).default(10_000),
    })
    .prefault({}),
  bundles: z.strictObject({ dir: z.string().min(1).default('./bundles') }).prefault({}),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).prefault({}),
  /** The validator queries miners' axons itself (off unless present): dispatch/dispatch-config.ts. */
  dispatch: dispatchConfigSchema.optional(),
  scoring: z.unknown().transform((value, ctx): EpochConfig => {
    const parsed = epochConfigSchema.safeParse(value);
    if (parsed.success) return parseEpochConfig(value);
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path.filter((p) => typeof p !== 'symbol') });
    return z.NEVER;
  }),
});
/** The parsed validator configuration. */
export type ValidatorConfig = z.output<typeof validatorConfigSchema>;

/** Command-line overrides, as commander gives them. */
export interface ConfigFlags {
  readonly host?: string;
  readonly port?: number;
  readonly databaseUrl?: string;
  readonly databasePath?: string;
  readonly chainEndpoint?: string;
  readonly bundlesDir?: string;
  readonly dryRun?: boolean;
  readonly logLevel?: string;
  /** `--wallet.name`, `--wallet.hotkey`, `--wallet.path` (btcli's names). */
  readonly walletName?: string;
  readonly walletHotkey?: string;
  readonly walletPath?: string;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  path.forEach((key, i) => {
    if (i === path.length - 1) node[key] = value;
    else {
      const next = node[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
  });
}

/** Keys whose variables are taken as they are, never read as YAML (a secret may look like a number or hold `#`). */
const SECRET_VARIABLE_KEYS: ReadonlySet<string> = new Set(['hotkey_uri', 'executor_token', 'url']);

/**
 * Reads `SUBNET_VALIDATOR_*` variables into a configuration overlay: `SUBNET_VALIDATOR_SERVER__PORT=9000`
 * sets `server.port`; values are YAML scalars (`9000` is a number, `true` a boolean), and {@link resolveConfig} holds
 * the numbers' spellings to decimal (docs/spec.md G.27).
 *
 * @param env - the environment (process.env)
 * @returns the overlay
 * @example envOverlay({ SUBNET_VALIDATOR_CHAIN__DRY_RUN: 'true' }) // { chain: { dry_run: true } }
 */
export function envOverlay(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const overlay: Record<string, unknown> = {};
  for (const { path, raw, secret } of settingVariables(env)) setPath(overlay, path, secret ? raw : (parseYaml(raw) as unknown));
  return overlay;
}

/** One `SUBNET_VALIDATOR_*` variable: its name, the setting path it names, its text, and whether it is a secret. */
interface SettingVariable {
  readonly name: string;
  readonly path: string[];
  readonly raw: string;
  readonly secret: boolean;
}

/** The `SUBNET_VALIDATOR_*` variables of `env`, read as {@link envOverlay} and the number spellings check both read them. */
function settingVariables(env: Readonly<Record<string, string | undefined>>): SettingVariable[] {
  const found: SettingVariable[] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || raw === undefined) continue;
    const path = name.slice(ENV_PREFIX.length).toLowerCase().split('__');
    found.push({ name, path, raw, secret: SECRET_VARIABLE_KEYS.has(path.at(-1) ?? '') });
  }
  return found;
}

/**
 * Reads the SDK's wallet variables `BT_WALLET_NAME`, `BT_WALLET_HOTKEY`, `BT_WALLET_PATH` (the defaults of the
 * SDK's `--wallet.*` flags, `bittensor_wallet` `Wallet.add_args`) into a configuration overlay.
 *
 * @param env - the environment (process.env)
 * @returns the overlay (`{ wallet: { name, hotkey, path } }`, only what is set)
 * @example btWalletEnvOverlay({ BT_WALLET_NAME: 'validator' }) // { wallet: { name: 'validator' } }
 */
export function btWalletEnvOverlay(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const overlay: Record<string, unknown> = {};
  for (const key of ['name', 'hotkey', 'path'] as const) {
    const value = env[`BT_WALLET_${key.toUpperCase()}`];
    if (value !== undefined && value !== '') setPath(overlay, ['wallet', key], value);
  }
  return overlay;
}

function merge(base: unknown, over: unknown): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return over;
  if (typeof over !== 'object' || over === null || Array.isArray(over)) return over;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) out[key] = merge(out[key], value);
  return out;
}

function flagOverlay(flags: ConfigFlags): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (flags.host !== undefined) setPath(o, ['server', 'host'], flags.host);
  if (flags.port !== undefined) setPath(o, ['server', 'port'], flags.port);
  if (flags.databaseUrl !== undefined) setPath(o, ['database', 'url'], flags.databaseUrl);
  if (flags.databasePath !== undefined) setPath(o, ['database', 'path'], flags.databasePath);
  if (flags.chainEndpoint !== undefined) setPath(o, ['chain', 'endpoint'], flags.chainEndpoint);
  if (flags.bundlesDir !== undefined) setPath(o, ['bundles', 'dir'], flags.bundlesDir);
  if (flags.dryRun === true) setPath(o, ['chain', 'dry_run'], true);
  if (flags.logLevel !== undefined) setPath(o, ['log', 'level'], flags.logLevel);
  if (flags.walletName !== undefined) setPath(o, ['wallet', 'name'], flags.walletName);
  if (flags.walletHotkey !== undefined) setPath(o, ['wallet', 'hotkey'], flags.walletHotkey);
  if (flags.walletPath !== undefined) setPath(o, ['wallet', 'path'], flags.walletPath);
  return o;
}

/**
 * Resolves the configuration: the file, then `BT_WALLET_*`, then `SUBNET_VALIDATOR_*`, then flags (later wins),
 * validated with zod.
 *
 * @param input - the file's text (YAML or JSON) or an already-parsed object, the environment and the flags
 * @returns the validated configuration (secrets included: never log it, use {@link redactConfig})
 * @throws SubnetError `VALIDATOR_CONFIG_FILE` for unparsable YAML; `VALIDATOR_INVALID_CONFIG` naming the
 *   first bad value's path (`server.port`) and value, or a number written in a spelling its setting refuses (`0x1f9b`
 *   for an integer, docs/spec.md G.27) with its text and where it was written
 * @example resolveConfig({ text: readFileSync('validator.yaml', 'utf8'), env: process.env })
 */
export function resolveConfig(input: {
  readonly text?: string;
  readonly object?: unknown;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly flags?: ConfigFlags;
  /** The file `text` was read from, named in the errors about it. */
  readonly file?: string;
}): ValidatorConfig {
  let base: unknown = input.object ?? {};
  const what = input.file === undefined ? 'the configuration' : `the configuration file ${input.file}`;
  const context = input.file === undefined ? {} : { path: input.file };
  let emptyFile = false;
  if (input.text !== undefined) {
    try {
      base = parseYaml(input.text) as unknown;
      // Nothing but whitespace, comments and document markers: no value at all (a file holding `null` or `~` has one;
      // a lone `---` starts a document whose value is an empty scalar, zero characters long).
      const contents = base === null ? parseDocument(input.text).contents : undefined;
      emptyFile = contents === null || (contents !== undefined && contents.range[0] === contents.range[1]);
    } catch (error) {
      // The parser's first line ends "at line L, column C:" before a drawing of the line; the colon led nowhere.
      const first = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
      throw new SubnetError(VALIDATOR_ERROR_CODES.configFile, `${what} is not valid YAML: ${first}; fix it there (subnet-validator init writes a valid one)`, {
        context,
        cause: error,
      });
    }
    // A list or a scalar at the top would be judged key by key as if empty ("missing netuid"); say what it is instead.
    if (base !== null && base !== undefined && (typeof base !== 'object' || Array.isArray(base))) {
      const holds = Array.isArray(base) ? 'a list' : `a ${typeof base}`;
      throw new SubnetError(
        VALIDATOR_ERROR_CODES.configFile,
        `${what} holds ${holds}, not a mapping of sections (netuid: 1, scoring: …); write each section as a key at the top level, as subnet-validator init does`,
        { context },
      );
    }
  }
  if (typeof base === 'object' && base !== null && !Array.isArray(base)) {
    // A section holding only comments parses as null: treat it as empty.
    base = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== null));
  }
  const env = input.env ?? {};
  const merged = merge(merge(merge(base ?? {}, btWalletEnvOverlay(env)), envOverlay(env)), flagOverlay(input.flags ?? {}));
  // A number setting written in a spelling the command-line flags refuse (0x1f9b, 1e3, 0o17 for an integer): YAML
  // reads a number from it, and the schema would take that number (docs/spec.md G.27).
  const misspelt = misspeltNumbers(input.text, input.file, env, merged, input.flags ?? {});
  if (misspelt.length > 0) throw numberSpellingError(misspelt);
  const result = validatorConfigSchema.safeParse(merged);
  if (result.success) {
    checkDispatchConfig(result.data.dispatch, result.data.scoring);
    return result.data;
  }
  const missing = emptyFile ? result.error.issues.filter((i) => isMissing(i, merged)) : [];
  if (missing.length > 0) throw emptyFileError(input.file, missing, result.error, merged);
  const issue = result.error.issues[0];
  const path = formatPath(issue?.path ?? []);
  // A single unknown key is told by its own path: its value (not its whole section, or the whole configuration at
  // the root), and where it came from (an environment variable `SUBNET_VALIDATOR_SERVER__PROT` is no line of the file).
  const issuePath = issue?.path ?? [];
  const unknown = issue === undefined ? undefined : unknownKeys(issue);
  const unknownKey = unknown?.length === 1 ? (unknown[0] ?? '') : undefined;
  const keyPath = unknownKey === undefined ? issuePath : [...issuePath, unknownKey];
  // The value is read from a copy with the secrets hidden: an issue on a section or on the whole file would otherwise
  // show the executor token or the key URI that sits beside it.
  const value = valueAt(redactConfigInput(merged), keyPath);
  // A peer's hotkey (`peers.urls[i].hotkey`) is public, unlike the URLs beside it, which may hold credentials by mistake.
  // A misspelt secret (`executor_tokn`, `hotkey_urii`) stays hidden too.
  const meant = unknownKey === undefined ? undefined : closeKey(issuePath, unknownKey);
  const misspeltSecret =
    unknownKey !== undefined &&
    (/tok|uri|url|pass|mnemonic|seed|secret|key/i.test(unknownKey) || (meant !== undefined && /hotkey_uri|executor_token|url|password/.test(meant)));
  const secret = misspeltSecret || (/hotkey_uri|executor_token|url/.test(path) && !/\.hotkey$/.test(path));
  // For an unknown key, a variable below it counts too: SUBNET_VALIDATOR_SERVR__PORT sets the unknown section `servr`.
  const source = valueSource(keyPath, env, input.flags ?? {}, unknownKey !== undefined);
  // Every problem is in context.issues; the message says how many there are and where the others are, so an operator
  // fixing the file does not find them one start at a time.
  const others = result.error.issues.slice(1).map(problemPlace);
  const count =
    others.length === 0
      ? ''
      : ` (${others.length + 1} problems, the first shown; the others at ${others.slice(0, 3).join(', ')}${others.length > 3 ? `, and ${others.length - 3} more` : ''})`;
  throw new SubnetError(
    VALIDATOR_ERROR_CODES.invalidConfig,
    `invalid configuration${count}: ${issue === undefined ? 'invalid' : issueSentence(issue, merged, source?.name)}${source === undefined ? '' : ` (${source.sentence})`}`,
    {
      context: {
        path,
        value: secret ? '[redacted]' : value,
        ...(source === undefined ? {} : { source: source.name }),
        issues: result.error.issues.map((i) => `${formatPath(i.path)}: ${issueSentence(i, merged)}`),
      },
      cause: result.error,
    },
  );
}

/** A number that takes effect, written in a spelling its setting refuses, or an integer past 2^53. */
interface MisspeltNumber {
  readonly number: WrittenNumber;
  readonly problem: string;
  /** The rule it breaks, after the problem in the message (`an integer setting takes decimal digits only, …`). */
  readonly rule: string;
  /** The rule in a few words, for `context.issues` (`decimal digits only`). */
  readonly brief: string;
}

/**
 * The numbers of the file and of the `SUBNET_VALIDATOR_` variables that take effect (not replaced by a later source or
 * a flag) and are written in a spelling their setting refuses ({@link numberSpellingProblem}). Only settings whose
 * schema is a number are judged: a secret written as a hexadecimal number (`executor_token: 0x1234…`) is left to the
 * schema, whose message hides it.
 */
function misspeltNumbers(
  text: string | undefined,
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  merged: unknown,
  flags: ConfigFlags,
): MisspeltNumber[] {
  const written = new Map<string, WrittenNumber>();
  const what = file === undefined ? 'the configuration' : `the configuration file ${file}`;
  if (text !== undefined) for (const n of writtenNumbers(text, [], (line) => `line ${line} of ${what}`)) written.set(JSON.stringify(n.path), n);
  for (const { name, path, raw, secret } of settingVariables(env)) {
    if (secret) continue;
    for (const n of writtenNumbers(raw, path, () => `set by the environment variable ${name}`)) written.set(JSON.stringify(n.path), { ...n, variable: name });
  }
  const flagged = flagOverlay(flags);
  const found: MisspeltNumber[] = [];
  for (const n of written.values()) {
    if (!Object.is(valueAt(merged, n.path), n.value) || valueAt(flagged, n.path) !== undefined) continue;
    const kind = numberKindAt(n.path);
    if (kind === undefined) continue;
    const problem = numberSpellingProblem(n.text, kind === 'integer');
    if (problem !== undefined) {
      found.push(
        kind === 'integer'
          ? { number: n, problem, rule: 'an integer setting takes decimal digits only, as the command-line flags do', brief: 'decimal digits only' }
          : { number: n, problem, rule: 'a number setting takes a decimal spelling', brief: 'a decimal spelling' },
      );
      continue;
    }
    // Past 2^53 YAML reads the text rounded: refused here, once, with the setting's own bound (docs/spec.md G.29.c).
    const bounds = kind === 'integer' ? integerBoundsAt(n.path) : undefined;
    const unsafe = bounds === undefined ? undefined : unsafeIntegerProblem(n.text, bounds);
    if (bounds !== undefined && unsafe !== undefined) {
      found.push({
        number: n,
        problem: unsafe,
        rule: `an integer is read exactly only up to 2^53 - 1 (YAML reads this one as ${n.value})`,
        brief: 'read exactly only up to 2^53 - 1',
      });
    }
  }
  return found;
}

/** The first misspelt number, told as the other invalid values are: its path, its text as written, where it is. */
function numberSpellingError(misspelt: readonly MisspeltNumber[]): SubnetError {
  const [first, ...others] = misspelt as [MisspeltNumber, ...MisspeltNumber[]];
  const place = (m: MisspeltNumber): string => formatPath(m.number.path);
  const count =
    others.length === 0
      ? ''
      : ` (${others.length + 1} problems, the first shown; the others at ${others.slice(0, 3).map(place).join(', ')}${others.length > 3 ? `, and ${others.length - 3} more` : ''})`;
  const sentence = (m: MisspeltNumber): string => `${JSON.stringify(m.number.text)} ${m.problem}; ${m.brief}`;
  return new SubnetError(
    VALIDATOR_ERROR_CODES.invalidConfig,
    `invalid configuration${count}: ${JSON.stringify(first.number.text)} ${first.problem}; ${first.rule} (${first.number.where})`,
    {
      context: {
        path: place(first),
        value: first.number.text,
        ...(first.number.variable === undefined ? {} : { source: first.number.variable }),
        issues: misspelt.map((m) => `${place(m)}: ${sentence(m)} (${m.number.where})`),
      },
    },
  );
}

/**
 * Whether the setting at `path` is an integer, another number, or neither (a string, a section, an unknown key). The
 * scoring section is read by `@subnet/bundle`'s schema, whose pipeline is `@subnet/aggregation`'s (both through
 * transforms the walk cannot see into); a value below another such transform (a table keyed by data) counts as a number.
 */
function numberKindAt(path: readonly PropertyKey[]): 'integer' | 'number' | undefined {
  const [root, below] = schemaRootAt(path);
  const kinds = schemasAt(root, below).flatMap(numberKinds);
  if (kinds.includes('integer')) return 'integer';
  if (kinds.includes('number')) return 'number';
  const opaque = below.some((_, i) => schemasAt(root, below.slice(0, i)).some(isOpaque));
  return kinds.length === 0 && opaque ? 'number' : undefined;
}

/** The schema that reads the setting at `path`, and the path below it: scoring is `@subnet/bundle`'s, its pipeline `@subnet/aggregation`'s. */
function schemaRootAt(path: readonly PropertyKey[]): [unknown, readonly PropertyKey[]] {
  return path[0] !== 'scoring'
    ? [validatorConfigSchema, path]
    : path[1] === 'pipeline'
      ? [pipelineConfigSchema, path.slice(2)]
      : [epochConfigSchema, path.slice(1)];
}

/**
 * The smallest and the largest integer the integer setting at `path` takes (every number its schema can be at that
 * path, as {@link numberKindAt} finds them; an unbounded side is 2^53 - 1, as `z.number().int()` bounds it).
 */
function integerBoundsAt(path: readonly PropertyKey[]): { readonly min: number; readonly max: number } {
  const [root, below] = schemaRootAt(path);
  const leaves = schemasAt(root, below).flatMap(numberLeaves);
  // A bound that excludes itself (`.lt(10)`, `.positive()`) is one integer further in.
  const takes = (leaf: NumberLeaf, value: number): boolean => leaf.safeParse(value).success;
  const max = (leaf: NumberLeaf): number => {
    const bound = Math.min(leaf.maxValue ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    return takes(leaf, bound) ? bound : bound - 1;
  };
  const min = (leaf: NumberLeaf): number => {
    const bound = Math.max(leaf.minValue ?? -Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER);
    return takes(leaf, bound) ? bound : bound + 1;
  };
  return leaves.length === 0
    ? { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }
    : { min: Math.min(...leaves.map(min)), max: Math.max(...leaves.map(max)) };
}

/** A number schema (zod's `ZodNumber`): its bounds, and a parse to tell whether a bound is taken. */
interface NumberLeaf {
  readonly minValue: number | null;
  readonly maxValue: number | null;
  safeParse(value: unknown): { readonly success: boolean };
}

/** The number schemas a schema can be at its top: wrappers (optional, default, pipe, ...) removed, every member of a union. */
function numberLeaves(schema: unknown): NumberLeaf[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  if (def.type === 'union') return (def.options ?? []).flatMap(numberLeaves);
  if (def.type === 'number') return [schema as NumberLeaf];
  const inner = def.innerType ?? def.in;
  return inner === undefined ? [] : numberLeaves(inner);
}

/** A schema that takes anything and judges it in a transform (`z.unknown().transform(…)`): the walk cannot see below it. */
function isOpaque(schema: unknown): boolean {
  const def = defOf(schema);
  if (def === undefined) return false;
  if (def.type === 'unknown' || def.type === 'any') return true;
  const inner = def.innerType ?? def.in;
  return inner !== undefined && isOpaque(inner);
}

/** The number kinds a schema takes at its top, one for each of its {@link numberLeaves}: an integer format or check, or not. */
function numberKinds(schema: unknown): ('integer' | 'number')[] {
  return numberLeaves(schema).map((leaf) => {
    const def = defOf(leaf);
    const formats = [def?.format, ...(def?.checks ?? []).map((c) => defOf(c)?.format)];
    return formats.some((f) => f !== undefined && /int/.test(f)) ? 'integer' : 'number';
  });
}

/** A required setting that nothing set: zod's "expected X, received undefined" where the merged input has no value. */
function isMissing(issue: z.core.$ZodIssue, merged: unknown): boolean {
  return /^Invalid input: expected \w+, received undefined$/.test(issue.message) && valueAt(merged, issue.path) === undefined;
}

/**
 * The error of an empty configuration file (nothing but whitespace and comments) that the environment and flags do
 * not complete: it says the file is empty first, since every other line is read from there, then each required
 * setting nothing set, with its key in the file and its environment variable. An empty file the environment
 * completes is a valid configuration, never this error.
 */
function emptyFileError(file: string | undefined, missing: readonly z.core.$ZodIssue[], cause: z.ZodError, merged: unknown): SubnetError {
  const where = file === undefined ? 'the config text' : `the config file ${file}`;
  const settings = missing.map((issue) => {
    // A variable names keys, not list items: a missing setting inside a list is set with its list's variable.
    const item = issue.path.findIndex((key) => typeof key !== 'string');
    const keys = (item === -1 ? issue.path : issue.path.slice(0, item)).map(String);
    const variable = `${ENV_PREFIX}${keys.join('__').toUpperCase()}`;
    const expected = /expected (\w+)/.exec(issue.message)?.[1] ?? 'value';
    const kind = expected === 'object' ? 'a section' : expected === 'array' ? 'a list' : `a ${expected}`;
    const dotted = formatPath(issue.path);
    const how =
      dotted === 'scoring'
        ? `write the scoring section in the file (subnet-validator init writes one with every challenge), or set ${variable} to it as YAML or JSON`
        : expected === 'object' || expected === 'array'
          ? `write it in the file, or set ${variable} to it as YAML or JSON`
          : `write ${dotted}: <${expected}> in the file, or set ${variable}`;
    return `${dotted} (${kind}: ${how})`;
  });
  const init = file === undefined ? '' : `; subnet-validator init --config ${file} --force writes a file with every section to edit`;
  return new SubnetError(
    VALIDATOR_ERROR_CODES.invalidConfig,
    `${where} is empty, and neither the environment nor a flag sets ${missing.length === 1 ? 'the setting it needs' : `the ${missing.length} settings it needs`}: ${settings.join('; ')}${init}`,
    {
      // No `path`: the message would end "at netuid", as if the one setting were the problem rather than the file.
      context: {
        missing: missing.map((issue) => formatPath(issue.path)),
        ...(file === undefined ? {} : { file }),
        issues: cause.issues.map((i) => `${formatPath(i.path)}: ${issueSentence(i, merged)}`),
      },
      cause,
    },
  );
}

/** The value at `path` in the merged configuration input, or undefined where the path leaves it. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** The parts of a zod schema's definition the key walk below reads. */
interface SchemaDef {
  readonly type: string;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly element?: unknown;
  readonly options?: readonly unknown[];
  /** A number's format (`safeint` for `z.int()`); a number check's (`z.number().int()` is a `number_format` check). */
  readonly format?: string;
  readonly checks?: readonly unknown[];
}

function defOf(schema: unknown): SchemaDef | undefined {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

/** The object schemas a schema can be at its top: wrappers (optional, default, ...) removed, every member of a union. */
function objectSchemas(schema: unknown): readonly SchemaDef[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  if (def.type === 'object') return [def];
  if (def.type === 'union') return (def.options ?? []).flatMap(objectSchemas);
  const inner = def.innerType ?? def.in;
  return inner === undefined ? [] : objectSchemas(inner);
}

/** The schemas at `path` below `schema` (list indices step into the element). */
function schemasAt(schema: unknown, path: readonly PropertyKey[]): readonly unknown[] {
  let at: readonly unknown[] = [schema];
  for (const key of path) {
    at = at.flatMap((s): unknown[] => {
      if (typeof key === 'number') {
        let def = defOf(s);
        while (def !== undefined && def.type !== 'array' && (def.innerType ?? def.in) !== undefined) def = defOf(def.innerType ?? def.in);
        return def?.type === 'array' ? [def.element] : [];
      }
      return objectSchemas(s).flatMap((o) => (o.shape !== undefined && Object.hasOwn(o.shape, key) ? [o.shape[key as string]] : []));
    });
  }
  return at;
}

/** The keys the configuration knows at `path` (every member's, where a union can be several objects). */
function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  // The scoring section is read by @subnet/bundle's schema (through a transform), so its keys are that schema's.
  const [root, below] = path[0] === 'scoring' ? [epochConfigSchema, path.slice(1)] : [validatorConfigSchema, path];
  return [...new Set(schemasAt(root, below).flatMap((s) => objectSchemas(s).flatMap((o) => Object.keys(o.shape ?? {}))))];
}

/**
 * The known keys below `path` that `key` spells with single underscores where levels meet (`server_port` at the top is
 * `server` then `port`), or undefined: the mistake of `SUBNET_VALIDATOR_SERVER_PORT` for `SUBNET_VALIDATOR_SERVER__PORT`.
 */
function levelsOf(path: readonly PropertyKey[], key: string): readonly string[] | undefined {
  for (const known of knownKeysAt(path)) {
    if (key === known) return [known];
    if (!key.startsWith(`${known}_`)) continue;
    const rest = levelsOf([...path, known], key.slice(known.length + 1));
    if (rest !== undefined) return [known, ...rest];
  }
  return undefined;
}

/**
 * The key the configuration knows at `path` that an unknown `key` is a slip of (one edit away, two for keys longer than five
 * letters, a swap of neighbouring letters counting one; or the same letters in another case), or undefined: an operator who wrote `prot` or `pol_ms` gets the key to write.
 */
function closeKey(path: readonly PropertyKey[], key: string): string | undefined {
  return nearestKey(key, knownKeysAt(path));
}

/**
 * The unknown keys an issue reports: zod's `unrecognized_keys`, or the same sentence a nested schema (the scoring
 * section's challenge settings) passes on as a custom issue.
 */
function unknownKeys(issue: z.core.$ZodIssue): readonly string[] | undefined {
  if (issue.code === 'unrecognized_keys') return issue.keys;
  if (issue.code !== 'custom') return undefined;
  const listed = /^Unrecognized keys?: (".*")$/.exec(issue.message)?.[1];
  return listed === undefined ? undefined : [...listed.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
}

/** Where a problem is, for the list of the other problems: an unknown key by its own path, said to be one. */
function problemPlace(issue: z.core.$ZodIssue): string {
  const keys = unknownKeys(issue);
  if (keys === undefined) return formatPath(issue.path) || '(root)';
  return keys
    .map((key) => {
      const close = closeKey(issue.path, key);
      return `${formatPath([...issue.path, key])} (an unknown key${close === undefined ? '' : `; did you mean "${close}"?`})`;
    })
    .join(', ');
}

/**
 * One problem in words: a required setting that is absent reads "missing: a section is required here" (or a list,
 * a string, ...) rather than zod's "expected object, received undefined"; any other problem is zod's message.
 */
function issueSentence(issue: z.core.$ZodIssue, merged: unknown, sourceName?: string): string {
  const unknown = unknownKeys(issue);
  if (unknown?.length === 1) {
    const key = unknown[0] ?? '';
    // A variable with one underscore where two separate levels (SUBNET_VALIDATOR_SERVER_PORT) names a key no section has.
    const levels = sourceName?.startsWith(ENV_PREFIX) === true ? levelsOf(issue.path, key) : undefined;
    if (levels !== undefined && levels.length > 1) {
      const name = `${ENV_PREFIX}${[...issue.path.map(String), ...levels].join('__').toUpperCase()}`;
      return `${issue.message} (did you mean ${name}? two underscores separate a section from its key)`;
    }
    const close = closeKey(issue.path, key);
    // Set by a variable: the variable to write instead (the key's level of its name corrected).
    if (close !== undefined && sourceName?.startsWith(ENV_PREFIX) === true) {
      const levels = sourceName.slice(ENV_PREFIX.length).split('__');
      if (levels.length > issue.path.length) {
        levels[issue.path.length] = close.toUpperCase();
        return `${issue.message} (did you mean ${ENV_PREFIX}${levels.join('__')}?)`;
      }
    }
    if (close !== undefined) return `${issue.message} (did you mean "${close}"?)`;
  }
  const expected = /^Invalid input: expected (\w+), received undefined$/.exec(issue.message)?.[1];
  if (expected === undefined) return issue.message;
  if (valueAt(merged, issue.path) !== undefined) return issue.message;
  return `missing: ${expected === 'object' ? 'a section' : expected === 'array' ? 'a list' : `a ${expected}`} is required here`;
}

/** The flag that sets each configuration path (`flagOverlay`), by dotted path. */
const FLAG_OF_PATH: Readonly<Record<string, string>> = {
  'server.host': '--host',
  'server.port': '--port',
  'database.url': '--database-url',
  'database.path': '--database-path',
  'chain.endpoint': '--chain-endpoint',
  'bundles.dir': '--bundles-dir',
  'chain.dry_run': '--dry-run',
  'log.level': '--log-level',
  'wallet.name': '--wallet.name',
  'wallet.hotkey': '--wallet.hotkey',
  'wallet.path': '--wallet.path',
};

/**
 * Where the invalid value came from when it was not the file: the flag, the `SUBNET_VALIDATOR_` variable or the
 * `BT_WALLET_` variable that set it, the highest that did (flags < environment < file, reversed). An operator
 * reading `at wallet.password_file` looks in the file, which may hold a good value the environment replaced; an
 * empty variable (`SUBNET_VALIDATOR_WALLET__PASSWORD_FILE=`, as compose files write an unset one) reads as YAML
 * null, which no message said. With `below`, a variable that names a key under `path` counts (an unknown section set by
 * `SUBNET_VALIDATOR_SERVR__PORT`).
 */
function valueSource(
  path: readonly PropertyKey[],
  env: Readonly<Record<string, string | undefined>>,
  flags: ConfigFlags,
  below = false,
): { readonly name: string; readonly sentence: string } | undefined {
  if (path.length === 0 || !path.every((key) => typeof key === 'string')) return undefined;
  const keys = path;
  const has = (overlay: Record<string, unknown>): boolean => {
    let node: unknown = overlay;
    for (const key of keys) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
      node = (node as Record<string, unknown>)[key];
    }
    return true;
  };
  const dotted = keys.join('.');
  const flag = FLAG_OF_PATH[dotted];
  if (flag !== undefined && has(flagOverlay(flags))) return { name: flag, sentence: `set by ${flag}` };
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || raw === undefined) continue;
    // `below`: an unknown key is also set by a variable naming a key under it (an unknown section's).
    const named = name.slice(ENV_PREFIX.length).toLowerCase();
    if (named !== keys.join('__') && !(below && named.startsWith(`${keys.join('__')}__`))) continue;
    const empty = raw.trim() === '' ? ', which is empty: an empty value reads as YAML null; unset it or give it a value' : '';
    return { name, sentence: `set by the environment variable ${name}${empty}` };
  }
  if (keys.length === 2 && keys[0] === 'wallet' && has(btWalletEnvOverlay(env))) {
    const name = `BT_WALLET_${keys[1]?.toUpperCase() ?? ''}`;
    return { name, sentence: `set by the environment variable ${name}` };
  }
  return undefined;
}

/** Keys whose values are secrets wherever they sit in an unvalidated configuration. */
const SECRET_KEYS: ReadonlySet<string> = new Set(['executor_token', 'hotkey_uri']);

/**
 * A copy of an unvalidated configuration (file, environment and flags merged) fit for an error message: the
 * value of every `executor_token` and `hotkey_uri` key is `[redacted]` and every string has its URL credentials
 * hidden (`redactUrl`). Keys are kept as data (`__proto__` included).
 *
 * @param value - the merged input, any shape
 * @returns the redacted copy
 * @example redactConfigInput({ server: { executor_token: 't', bogus: 1 } }) // { server: { executor_token: '[redacted]', bogus: 1 } }
 */
export function redactConfigInput(value: unknown): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (Array.isArray(value)) return value.map(redactConfigInput);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_KEYS.has(key) && v !== undefined && v !== null ? '[redacted]' : redactConfigInput(v)]),
  );
}

/**
 * Loads the configuration file at `file` and resolves it with the environment and flags.
 *
 * @param file - path of the YAML file
 * @param env - the environment
 * @param flags - command-line overrides
 * @returns the validated configuration
 * @throws SubnetError `VALIDATOR_CONFIG_FILE` when the file cannot be read; the codes of {@link resolveConfig}
 * @example loadConfig('validator.yaml', process.env, { dryRun: true })
 */
export function loadConfig(file: string, env: Readonly<Record<string, string | undefined>>, flags: ConfigFlags = {}): ValidatorConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = describeSystemError(error);
    // What to do, for the two a newcomer meets: a file not written yet (or a typo), and a folder given as the file.
    const code = (error as NodeJS.ErrnoException).code;
    const advice =
      code === 'ENOENT'
        ? `; write one with subnet-validator init --config ${file}, or give the file you meant to --config`
        : code === 'EISDIR'
          ? '; it is a folder: give --config the YAML file itself (subnet-validator init --config <file> writes one)'
          : '';
    throw new SubnetError(VALIDATOR_ERROR_CODES.configFile, `cannot read the configuration file ${file}${reason === undefined ? '' : `: ${reason}`}${advice}`, {
      context: { path: file },
      cause: error,
    });
  }
  return resolveConfig({ text, env, flags, file });
}

/**
 * A copy of the configuration safe to log: the hotkey URI and executor token hidden, the credentials of the
 * database URL and chain endpoint (userinfo and credential-looking query parameters) hidden by
 * `@subnet/core`'s `redactUrl`.
 *
 * @param config - the configuration
 * @returns the redacted copy
 * @example logger.info({ config: redactConfig(config) }, 'starting')
 */
export function redactConfig(config: ValidatorConfig): unknown {
  return {
    ...config,
    validator: { hotkey_uri: config.validator.hotkey_uri === undefined ? undefined : '[redacted]' },
    server: { ...config.server, executor_token: config.server.executor_token === undefined ? undefined : '[redacted]' },
    database: { ...config.database, url: config.database.url === undefined ? undefined : redactUrl(config.database.url) },
    chain: { ...config.chain, endpoint: redactUrl(config.chain.endpoint) },
    ...(config.dispatch === undefined ? {} : { dispatch: redactDispatch(config.dispatch) }),
  };
}

/**
 * The commented default configuration that `subnet-validator init` writes.
 *
 * @returns YAML text that {@link resolveConfig} accepts once the secrets are set in the environment
 * @example writeFileSync('validator.yaml', defaultConfigYaml())
 */
export function defaultConfigYaml(): string {
  return `# subnet-validator configuration. Every value can be overridden by an environment variable:
# SUBNET_VALIDATOR_<SECTION>__<KEY> (e.g. SUBNET_VALIDATOR_SERVER__PORT=9000), and some by flags
# (subnet-validator run --help). Later wins: file < environment < flags. A bad value stops start-up.

# The subnet this validator scores.
netuid: 1

# The btcli wallet whose hotkey (sr25519) signs weights and audit bundles: <path>/<name>/hotkeys/<hotkey>.
# Also BT_WALLET_NAME / BT_WALLET_HOTKEY / BT_WALLET_PATH and --wallet.name / --wallet.hotkey / --wallet.path.
# An encrypted hotkey's password: password_file, else btwallet's BT_PW_<PATH> variable, else a prompt
# on the terminal; never a flag. The address it signs with is logged at start-up.
wallet:
  name: default
  hotkey: default
  path: ~/.bittensor/wallets
  # password_file: /run/secrets/hotkey-password

validator:
  # Dev chains only: a key URI that replaces the wallet. Keep it out of this file:
  #   export SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI='//Alice'   (or a mnemonic, or a 0x seed)
  # hotkey_uri: ''

server:
  host: 127.0.0.1            # bind address; expose through a reverse proxy, not 0.0.0.0
  port: 8091
  body_limit_bytes: 1048576  # larger request bodies get 413
  max_clock_skew_seconds: 60 # signed requests (POST /v1/sssa, /v1/peer-scores) must be this fresh
  require_receiver: false    # true: refuse signed requests without x-subnet-receiver (see validator_signed_requests_total)
  request_timeout_ms: 30000  # whole request deadline (slow bodies get 408 and are closed)
  headers_timeout_ms: 10000  # headers deadline (a socket that sends no request is closed after it)
  keep_alive_timeout_ms: 5000  # idle keep-alive sockets are closed after it
  max_connections: 1024      # further connections are closed at once
  max_connections_per_source: 128  # from one address (IPv6: one /64); behind a proxy or load balancer, set it to max_connections
  signer_rate_per_minute: 120  # signed requests per signer hotkey (429 RATE_LIMITED + Retry-After beyond)
  signer_burst: 30
  input_limits:              # every POST body, before anything reads it (400 CORE_INPUT_TOO_DEEP / _TOO_LARGE)
    max_depth: 64            # nested objects and arrays, the body counting 1 (at most 64)
    max_list_length: 100000  # elements of one list (at most 100000)
    max_string_length: 1048576  # UTF-16 code units of one string or key (at most 1048576)
    max_object_keys: 10000   # keys of one object (at most 10000)
  # Bearer token of the executor endpoints (POST /v1/workflow-runs, /v1/term-results, /v1/bounty-records).
  #   export SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN='at least 16 characters'

database:
  path: ./validator.sqlite   # SQLite (WAL, synchronous=FULL) unless url is set
  # url: postgresql://user:password@127.0.0.1:5432/validator   (or SUBNET_VALIDATOR_DATABASE__URL)

chain:
  endpoint: ws://127.0.0.1:9944
  # epoch_length: 360        # blocks per epoch; default: the length the database records, else the subnet's tempo
  poll_ms: 1000              # how often the chain head is read
  stale_head_ms: 60000       # /readyz fails when the head has not changed for this long
  wait: inBlock              # inBlock, or finalized (the close also waits for finality; bundles name a final block either way)
  dry_run: false             # compute and write bundles, never sign nor submit (also --dry-run)
  commit_store: ./commits.json  # commit-reveal salts until their reveal (secret: not in bundles.dir)
  # era_period: 64             # mortal era of weight extrinsics (blocks, a power of two)

# High availability: run several instances on one PostgreSQL database (database.url); every instance
# ingests, the one holding the lease closes epochs and submits. SQLite runs one instance, no lease.
ha:
  # lease_ttl_ms: 1500       # default max(1500, 1.5 x poll_ms): a standby takes over within two polls

# Peer validators: after each close this validator sends them its own per-miner scores of that epoch
# (POST /v1/peer-scores, signed with the hotkey); a peer counts them in its close of the next epoch.
peers:
  urls: []                   # e.g. [http://10.0.0.2:8091]; no credentials in these URLs; with the peer's hotkey,
                             # {url: http://10.0.0.2:8091, hotkey: 5F...} binds each request to that peer
  attempts: 4                # per peer and epoch; unreachable, 408, 429 and 5xx are retried, other 4xx are final
  backoff_ms: 500            # first wait between attempts, doubled each time
  timeout_ms: 10000          # one attempt's time limit

bundles:
  dir: ./bundles             # one signed audit bundle per epoch: epoch-<n>.json

log:
  level: info

# Dispatch: the validator queries miners' axons itself (off unless this section is present). See the
# README, "Dispatching tasks to axons", for the synapse declaration, task files and the executor webhook.
# dispatch:
#   concurrency: 16
#   allow_private_axons: false   # true only for a local devnet or a private cluster: miners choose their address
#   challenges:
#     - challenge_id: sssa
#       synapse: { name: SecurityAudit, fields: [{ name: target, type: str }, { name: sssa, type: { optional: any }, default: null }], answer_field: sssa }
#       interval_ms: 12000
#       timeout_seconds: 12
#       task_source: { folder: ./tasks/sssa }

# Scoring: what the audit bundle records as the full configuration (SPEC sections A-C).
scoring:
  pipeline:
    min_validators: 3          # evaluations needed per miner after outlier removal (SPEC C.4)
    min_stake_fraction: 0.3    # share of the validator set's stake behind them
    outlier: { method: modified_z, threshold: 3.5 }   # or zscore (threshold 2.0)
    normalisation: { strategy: linear }               # linear, softmax, winner_takes_all, quadratic, ranked
    weight_cap: 0.5            # per-miner cap, water-filling (SPEC C.5)
    burn_uid: 0                # where unallocated, capped-off and decayed weight goes
    decay: { grace_epochs: 10, rho: 0.05, max_burn: 0.8, curve: linear, improvement_threshold: 0.02, improvement_mode: absolute }
    u16_mode: sum              # sum (exactly 65535) or max
  # Which challenges run and their emission shares alpha (sum <= 1; the rest burns).
  challenges:
    - id: workflow             # composite workflow score, rolling 100-task window (SPEC A)
      kind: workflow
      alpha: 0.4
      weight_cap: 0.15
    - id: sssa                 # SSSA consensus and emission (SPEC B)
      kind: sssa
      alpha: 0.3
      emission:
        role: { primary: 1.0, auditor: 0.6 }
        base_weights: {}       # per task type, e.g. { mcp_server: 1.0 }
        default_base_weight: 1
        tier_multipliers: {}   # per miner hotkey
        default_tier_multiplier: 1
      assignment:              # groups of registered tasks (POST /v1/tasks), docs/spec.md G.3
        primaries: 3           # top k eligible miners by per-type reputation
        auditors: 2            # drawn from the rest, seeded by sha256(block_hash|task_id)
        min_reputation: 0.2    # eligibility threshold
        initial_reputation: 0.5
        reputation_rate: 0.1   # r = (1 - rate) * r + rate * consensus, per assigned member
    - id: term                 # term pass rate: tasks passed / benchmark size (SPEC C.1)
      kind: term_pass_rate
      alpha: 0.2
      total_tasks: 50
    - id: bounty               # bounty points and star bonus (SPEC C.8)
      kind: bounty
      alpha: 0.1
`;
}
