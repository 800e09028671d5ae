import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { dispatchConfigSchema } from '../dispatch/dispatch-config.js';
import { defaultConfigYaml, resolveConfig, validatorConfigSchema } from '../config.js';
import { createMetrics } from '../metrics.js';
import { buildServer, type ServerContext } from '../server.js';

/**
 * The README a validator operator reads against the code it describes: every configuration key it names is one the
 * schema has, every key the schema has (outside `scoring`, which `@subnet/bundle` documents) is named, every default
 * it states is the schema's, its configuration examples are accepted, its metric names are the registry's, and its
 * endpoint tables list exactly the server's routes.
 */
const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

interface ZodDef {
  readonly type: string;
  readonly innerType?: unknown;
  readonly shape?: Record<string, unknown>;
  readonly element?: unknown;
  readonly options?: readonly unknown[];
  readonly in?: unknown;
  readonly defaultValue?: unknown;
}
const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;

/** The default of a key's schema (undefined when it has none). */
function defaultOf(schema: unknown): unknown {
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault')
    return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
  if (def.type === 'optional' || def.type === 'nullable') return defaultOf(def.innerType);
  return undefined;
}

/** Every key path of an object schema (`server.port`, `peers.urls[].hotkey`) with its default. */
function keyPaths(schema: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  const def = defOf(schema);
  if (def.type === 'object') {
    for (const [key, value] of Object.entries(def.shape ?? {})) {
      const at = path === '' ? key : `${path}.${key}`;
      out.set(at, defaultOf(value));
      keyPaths(value, at, out);
    }
  } else if (['default', 'prefault', 'optional', 'nullable'].includes(def.type)) keyPaths(def.innerType, path, out);
  else if (def.type === 'array') keyPaths(def.element, `${path}[]`, out);
  else if (def.type === 'union') for (const option of def.options ?? []) keyPaths(option, path, out);
  else if (def.type === 'pipe') keyPaths(def.in, path, out);
  return out;
}

const schemaKeys = keyPaths(validatorConfigSchema);
for (const [key, value] of keyPaths(dispatchConfigSchema, 'dispatch')) schemaKeys.set(key, value);
const plainKeys = new Set([...schemaKeys.keys()].map((k) => k.replaceAll('[]', '')));
/** `scoring` is `@subnet/bundle`'s epoch configuration: its keys are those of the file `init` writes, every default. */
const initFile = parseYaml(defaultConfigYaml()) as Record<string, unknown>;
function inInitFile(path: string): boolean {
  let node: unknown = initFile;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

const sections = new Set([...plainKeys].map((k) => k.split('.')[0]));
/** Every `section.key` the README writes in backticks (file names such as `server.ts` are not keys). */
const namedPaths = [...new Set([...readme.matchAll(/`([a-z_]+(?:\.[a-z_0-9]+)+)`/g)].map((m) => m[1] ?? ''))].filter(
  (p) => sections.has(p.split('.')[0]) && !/\.(ts|js|json|yaml|md)$/.test(p),
);

describe('README: configuration', () => {
  it('every configuration key the README names in backticks is a key of the schema (or of scoring as init writes it)', () => {
    expect(namedPaths.length).toBeGreaterThan(20);
    const unknown = namedPaths.filter((p) => !plainKeys.has(p) && !(p.startsWith('scoring.') && inInitFile(p)));
    expect(unknown).toEqual([]);
  });

  it('every key of the schema outside scoring is named in the README (its path, a path under it, its key, or a YAML line)', () => {
    const unnamed = [...plainKeys]
      .filter((p) => !p.startsWith('scoring'))
      .filter((p) => {
        const parts = p.split('.');
        const key = parts.at(-1) ?? p;
        // A path the README shortens within its section (`input_limits.max_depth` under server) counts as named.
        const tails = parts.slice(1, -1).map((_, i) => parts.slice(i + 1).join('.'));
        return !(
          readme.includes(`\`${p}\``) ||
          tails.some((t) => readme.includes(`\`${t}\``)) ||
          namedPaths.some((n) => n.startsWith(`${p}.`)) ||
          readme.includes(`\`${key}\``) ||
          new RegExp(`(^\\s*(- )?|[{,] )${key}:`, 'm').test(readme)
        );
      });
    expect(unnamed).toEqual([]);
  });

  it('each default the limits table states is the schema default of its settings', () => {
    // | `headers_timeout_ms` | 10000 | ... and | `input_limits.max_list_length`, `max_string_length`, `max_object_keys` | 100000, 1048576, 10000 | ...
    const rows = [...readme.matchAll(/^\| (`[a-z_.]+`(?:, `[a-z_.]+`)*) +\| ([0-9, ]+?) +\|/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const stated: [string, number][] = [];
    for (const [, keys = '', defaults = ''] of rows) {
      const names = [...keys.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1] ?? '');
      const values = defaults.split(',').map((v) => Number(v.trim()));
      expect(values.length, keys).toBe(names.length);
      // `max_string_length` after `input_limits.max_list_length` is in the same group.
      const group = names[0]?.includes('.') === true ? names[0].slice(0, names[0].lastIndexOf('.') + 1) : '';
      names.forEach((name, i) => stated.push([`server.${name.includes('.') ? name : group + name}`, values[i] ?? Number.NaN]));
    }
    const actual = stated.map(([path]) => [path, schemaKeys.get(path)]);
    expect(actual).toEqual(stated);
  });

  it('each default the prose states next to a key (`chain.commit_store` (default ./commits.json), `peers.backoff_ms` (500)) is the schema default', () => {
    const stated = [...readme.matchAll(/`([a-z_]+\.[a-z_.]+)`[^(`]{0,12}\((?:default )?`?([0-9][0-9.]*|\.\/[^`),; ]+|[a-zA-Z][\w./:-]*)`?[),;]/g)]
      .map((m) => [m[1] ?? '', m[2] ?? ''] as const)
      .filter(([path]) => plainKeys.has(path) && schemaKeys.get(path) !== undefined);
    expect(stated.map(([path]) => path)).toEqual(expect.arrayContaining(['chain.commit_store', 'peers.backoff_ms', 'peers.timeout_ms']));
    expect(stated.map(([path]) => [path, String(schemaKeys.get(path))])).toEqual(stated.map(([path, value]) => [path, value]));
  });

  // The dispatch example is checked by dispatch.test.ts ("the README's example and the init file's commented section").
  it('the HA setup validator.yaml it shows is accepted', () => {
    const heredoc = /cat > validator\.yaml <<'YAML'\n([\s\S]*?)^YAML$/m.exec(readme)?.[1];
    expect(heredoc).toBeDefined();
    const ha = resolveConfig({ text: heredoc ?? '', env: { SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: '//Alice' } });
    expect([ha.netuid, ha.chain.endpoint, ha.database.url]).toEqual([1, 'ws://127.0.0.1:9955', 'postgresql://subnet:subnet@127.0.0.1:5432/validator']);
  });
});

describe('README: metrics', () => {
  it('names every metric the registry has, and no other validator_ metric', async () => {
    const registered = (await createMetrics().registry.getMetricsAsJSON()).map((m) => m.name).sort();
    const named = [...new Set([...readme.matchAll(/\bvalidator_[a-z_]+\b/g)].map((m) => m[0]))].sort();
    expect(named).toEqual(registered);
  });
});

/** Every `METHOD path` the server routes (HEAD, which fastify adds to each GET, left out), from its route tree. */
async function serverRoutes(): Promise<string[]> {
  // Routes are registered when the server is built; the context is read only while requests are answered.
  const app = buildServer({ logger: pino({ level: 'silent' }), metrics: createMetrics() } as unknown as ServerContext);
  await app.ready();
  const routes: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (node === null) continue;
    const depth = (node[1] ?? '').length;
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const path = `${stack.at(-1)?.path ?? ''}${node[2] ?? ''}`;
    stack.push({ depth, path });
    for (const method of (node[3] ?? '').split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  await app.close();
  return routes.sort();
}

describe('README: endpoints', () => {
  it('the HTTP API and pages tables list exactly the routes the server has', async () => {
    const rows = readme.split('\n').filter((line) => /^\| `(GET|POST) /.test(line));
    const documented = rows
      .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(GET|POST) ([^`\s]+)`/g)])
      .map(([, method = '', path = '']) => `${method} ${path.replace(/\[\?[^\]]*\]$/, '').replace(/\{(\w+)\}/g, ':$1')}`)
      .sort();
    expect(documented.length).toBeGreaterThan(10);
    expect(documented).toEqual(await serverRoutes());
  });
});
