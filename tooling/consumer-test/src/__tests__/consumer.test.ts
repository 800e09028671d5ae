// A third party installs one package from a tarball into a project of its own. This test does exactly
// that for every publishable package: `pnpm pack`, a fresh npm project in the system temp folder (outside
// the workspace, so nothing resolves through it), then the package used from ESM `import`, CommonJS
// `require`, and TypeScript under node16 (ESM and CommonJS) and bundler resolution, where a deliberate
// type error must be reported (proving the types resolved instead of silently falling back to `any`).
// publint and are-the-types-wrong judge each tarball's manifest.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { headingSlugs } from '@subnet/vitest-config/markdown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  CHECKER_SOURCE,
  CHECKER_TYPES,
  checkedProgram,
  type Expectation,
  importedPackages,
  installedByReadme,
  readmeBlocks,
  type ReadmeBlock,
} from '../readme-examples.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const attw = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');

interface Publishable {
  readonly name: string;
  readonly dir: string;
  readonly manifest: Record<string, unknown> & { name: string; peerDependencies?: Record<string, string>; devDependencies?: Record<string, string> };
}

const everyPublishable: Publishable[] = readdirSync(join(root, 'packages'))
  .sort()
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Publishable['manifest'] }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest }));

/**
 * `SUBNET_CONSUMER_ONLY=@subnet/consensus` (comma-separated) checks those packages and the workspace
 * packages they depend on, to try one package's manifest quickly; the test command checks every package.
 */
function selected(all: readonly Publishable[], only: string | undefined): Publishable[] {
  if (only === undefined || only.trim() === '') return [...all];
  const byName = new Map(all.map((p) => [p.name, p]));
  const keep = new Set<string>();
  const add = (name: string): void => {
    const pkg = byName.get(name);
    if (pkg === undefined || keep.has(name)) return;
    keep.add(name);
    const deps = (pkg.manifest as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const dep of Object.keys(deps)) add(dep);
  };
  for (const name of only.split(',')) add(name.trim());
  return all.filter((p) => keep.has(p.name));
}
const publishable = selected(everyPublishable, process.env.SUBNET_CONSUMER_ONLY);
const consensusSelected = publishable.some((p) => p.name === '@subnet/consensus');

/** Every subpath a package exports besides its root and its manifest (`@subnet/bundle/records`, `@subnet/chain/networks`). */
const subpaths = publishable.flatMap((pkg) =>
  Object.keys((pkg.manifest.exports as Record<string, unknown> | undefined) ?? {})
    .filter((key) => key !== '.' && key !== './package.json')
    .map((key) => `${pkg.name}${key.slice(1)}`),
);
/** What a consumer imports: every package's root and every subpath export. */
const entries = [...publishable.map((p) => p.name), ...subpaths];

let work = '';
/** What in a declaration file needs Node.js's own types (`@types/node`). */
const NODE_NAMED = /from ['"]node:|\bBuffer\b|\bNodeJS\./;

/** The declaration files (`.d.ts`, `.d.cts`) of an unpacked package that name Node.js's own types, with their text. */
function declarationsNamingNode(pkg: Publishable): { readonly file: string; readonly text: string }[] {
  const dist = join(unpacked.get(pkg.name) ?? '', 'dist');
  return readdirSync(dist)
    .filter((file) => /\.d\.c?ts$/.test(file))
    .map((file) => ({ file, text: readFileSync(join(dist, file), 'utf8') }))
    .filter(({ text }) => NODE_NAMED.test(text));
}
const tarballs = new Map<string, string>();
const unpacked = new Map<string, string>();
/** Runtime export names of each package and subpath, read from the ESM build inside the fresh project. */
let exportNames: Record<string, string[]> = {};

function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${String(result.status)}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function pnpm(): { command: string; prefix: string[] } {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return { command: 'pnpm', prefix: [] };
  return { command: 'npx', prefix: ['--yes', 'pnpm@10.34.8'] };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'subnet-consumer-'));
  const packs = join(work, 'tarballs');
  mkdirSync(packs);
  const { command, prefix } = pnpm();
  for (const pkg of publishable) {
    expect(existsSync(join(pkg.dir, 'dist', 'index.js')), `${pkg.name} is built (turbo runs ^build before this test)`).toBe(true);
    const out =
      run(command, [...prefix, 'pack', '--pack-destination', packs], pkg.dir)
        .trim()
        .split('\n')
        .at(-1) ?? '';
    const tarball = out.startsWith('/') ? out : join(packs, out.split('/').at(-1) ?? out);
    expect(existsSync(tarball), `pnpm pack wrote ${tarball}`).toBe(true);
    tarballs.set(pkg.name, tarball);
    const into = join(work, 'unpacked', pkg.name.replace('/', '__'));
    mkdirSync(into, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', into]);
    unpacked.set(pkg.name, join(into, 'package'));
  }

  // The consumer: a fresh npm project that knows nothing of the workspace.
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  const peers = new Map<string, string>();
  // Node.js's own types, as any TypeScript project for Node.js has: the README examples use `console`,
  // `setTimeout` and `TextEncoder`.
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  peers.set('@types/node', rootManifest.devDependencies['@types/node'] ?? '20');
  for (const pkg of publishable) {
    for (const name of Object.keys(pkg.manifest.peerDependencies ?? {})) {
      const version = pkg.manifest.devDependencies?.[name];
      if (version !== undefined) peers.set(name, version);
    }
  }
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs.values(), ...[...peers].map(([n, v]) => `${n}@${v}`)],
    app,
  );

  writeFileSync(
    join(app, 'esm.mjs'),
    `const names = ${JSON.stringify(entries)};\nconst out = {};\nfor (const name of names) out[name] = Object.keys(await import(name)).sort();\nconsole.log(JSON.stringify(out));\n`,
  );
  exportNames = JSON.parse(run(process.execPath, ['esm.mjs'], app)) as Record<string, string[]>;
}, 900_000);

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

describe('every publishable package, installed from its tarball outside the workspace', () => {
  it('is listed as a dev dependency here, so turbo builds it before this test', () => {
    const own = JSON.parse(readFileSync(join(root, 'tooling', 'consumer-test', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    for (const pkg of everyPublishable) expect(own.devDependencies[pkg.name], pkg.name).toBe('workspace:*');
  });

  it.each(entries.map((name) => [name]))('%s loads with ESM import and exports something', (name) => {
    expect(exportNames[name]?.length ?? 0).toBeGreaterThan(0);
  });

  it('loads every package and subpath with CommonJS require, with the same export names as ESM', () => {
    const app = join(work, 'app');
    writeFileSync(
      join(app, 'cjs.cjs'),
      `const names = ${JSON.stringify(entries)};\nconst out = {};\nfor (const name of names) out[name] = Object.keys(require(name)).filter((k) => k !== '__esModule').sort();\nconsole.log(JSON.stringify(out));\n`,
    );
    const cjs = JSON.parse(run(process.execPath, ['cjs.cjs'], app)) as Record<string, string[]>;
    for (const name of entries) expect(cjs[name], name).toEqual(exportNames[name]);
  });

  it.each([
    ['node16, an ESM project', { module: 'node16', moduleResolution: 'node16' }, 'module', 'index.mts'],
    ['node16, a CommonJS project', { module: 'node16', moduleResolution: 'node16' }, 'commonjs', 'index.cts'],
    ['bundler resolution', { module: 'esnext', moduleResolution: 'bundler' }, 'module', 'index.ts'],
  ] as const)('type-checks under %s, and reports the deliberate type error of each package and subpath', (_label, options, type, file) => {
    const project = join(work, `ts-${options.moduleResolution}-${type}`);
    mkdirSync(project);
    // The fresh project's node_modules, seen from here: TypeScript walks up to it.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ts-consumer', private: true, type }));
    const lines: string[] = [];
    entries.forEach((name, i) => {
      const names = exportNames[name] ?? [];
      lines.push(`import * as pkg${i} from '${name}';`);
      // A real export name type-checks; a made-up one must not (if the types had not resolved, the
      // namespace would be \`any\` and this line would pass silently).
      lines.push(`export const real${i}: (keyof typeof pkg${i})[] = [${JSON.stringify(names[0])}];`);
      lines.push(`export const wrong${i}: (keyof typeof pkg${i})[] = ['not_an_export_of_${name.replace(/\W/g, '_')}'];`);
    });
    writeFileSync(join(project, file), `${lines.join('\n')}\n`);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: [file] }),
    );
    // node_modules of the consumer app, linked in so resolution stays outside the workspace.
    execFileSync('ln', ['-s', join(work, 'app', 'node_modules'), join(project, 'node_modules')]);
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
    const errors = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    const wrongLines = entries.map((_name, i) => 3 * i + 3);
    const expected = wrongLines.map((line) => `${file}(${line},`);
    for (const prefix of expected)
      expect(
        errors.some((e) => e.startsWith(prefix) && e.includes('TS2322')),
        `the deliberate error at ${prefix} is reported`,
      ).toBe(true);
    // Ours: the consumer file and our packages' declarations. @polkadot's own declarations have errors of
    // their own under skipLibCheck: false (types from pallets Subtensor lacks); they are not ours to judge.
    const ours = errors.filter((e) => e.startsWith(file) || e.includes('node_modules/@subnet/'));
    const unexpected = ours.filter((e) => !expected.some((prefix) => e.startsWith(prefix)));
    expect(unexpected, 'no other type error in the consumer file or in our declarations').toEqual([]);
  });

  it("references @types/node in every declaration file that names Node.js's own types (node:*, Buffer, NodeJS)", () => {
    for (const pkg of publishable) {
      for (const { file, text } of declarationsNamingNode(pkg))
        expect(text.startsWith('/// <reference types="node" />'), `${pkg.name} dist/${file}`).toBe(true);
    }
  });

  it('type-checks each package that names Node.js types on its own, with nothing else in the program to load @types/node', () => {
    // Each package alone (`"types": []`, no other package's declarations): under the full import above, another
    // package's `/// <reference types="node" />` (@polkadot's) would load Node.js's types for every package.
    const alone = publishable.filter((pkg) => declarationsNamingNode(pkg).some(({ file }) => file.endsWith('.d.ts')));
    const known = publishable.map((p) => p.name).filter((n) => n === '@subnet/axon' || n === '@subnet/wallet');
    expect(
      alone.map((p) => p.name),
      'the packages known to name Node.js types are found',
    ).toEqual(expect.arrayContaining(known));
    for (const pkg of alone) {
      const project = join(work, `ts-alone-${pkg.name.replace(/\W/g, '_')}`);
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ts-alone', private: true, type: 'module' }));
      writeFileSync(join(project, 'index.ts'), `import * as pkg from '${pkg.name}';\nexport const names: (keyof typeof pkg)[] = [];\n`);
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
          files: ['index.ts'],
        }),
      );
      execFileSync('ln', ['-s', join(work, 'app', 'node_modules'), join(project, 'node_modules')]);
      const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
      const ours = result.stdout
        .split('\n')
        .filter((line) => /error TS\d+/.test(line) && (line.startsWith('index.ts') || line.includes('node_modules/@subnet/')));
      expect(ours, `${pkg.name} alone`).toEqual([]);
    }
  });
});

describe.each(publishable.map((p) => [p.name, p] as const))('the tarball of %s', (name) => {
  it('has a manifest whose exports hold no source condition, whose every target is shipped, and a LICENSE', () => {
    const dir = unpacked.get(name) ?? '';
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    const manifest = JSON.parse(text) as { exports?: unknown; imports?: unknown };
    expect(JSON.stringify(manifest.exports)).not.toContain('source');
    expect(JSON.stringify(manifest.imports ?? {})).not.toContain('source');
    expect(text).not.toContain('workspace:');
    // Every file an `exports` or `imports` condition points at is in the tarball.
    const targets: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') targets.push(v);
      else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x);
    };
    walk(manifest.exports);
    walk(manifest.imports);
    expect(targets.filter((t) => t.startsWith('./') && !existsSync(join(dir, t)))).toEqual([]);
    expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
  });

  it('ships built files only: no TypeScript source', () => {
    const files: string[] = [];
    const walk = (at: string): void => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(at, entry.name));
        else files.push(join(at, entry.name));
      }
    };
    const dir = unpacked.get(name) ?? '';
    walk(dir);
    const source = files.map((f) => f.slice(dir.length + 1)).filter((f) => f.startsWith('src/') || (/\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f)));
    expect(source).toEqual([]);
  });

  it('ships every file its README links to, and every linked heading exists', () => {
    const dir = unpacked.get(name) ?? '';
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((href) => !/^[a-z]+:/i.test(href));
    const missing = links.map((href) => href.split('#')[0] ?? '').filter((path) => path !== '' && !existsSync(join(dir, path)));
    expect(missing, `README links of ${name} that the tarball does not hold`).toEqual([]);
    const badAnchors = links.filter((href) => {
      const [path = '', anchor] = href.split('#');
      if (anchor === undefined || (path !== '' && !path.endsWith('.md'))) return false;
      const text = readFileSync(join(dir, path === '' ? 'README.md' : path), 'utf8');
      return !headingSlugs(text).has(anchor);
    });
    expect(badAnchors, `README links of ${name} to headings that do not exist`).toEqual([]);
  });

  it('passes publint with no error, warning or suggestion', async () => {
    const { publint } = await import('publint');
    const tarball = readFileSync(tarballs.get(name) ?? '');
    const { messages } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    const { formatMessage } = await import('publint/utils');
    const pkg = JSON.parse(readFileSync(join(unpacked.get(name) ?? '', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('passes are-the-types-wrong for node10, node16 (CJS and ESM) and bundler', () => {
    const result = spawnSync(process.execPath, [attw, tarballs.get(name) ?? '', '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const report = JSON.parse(result.stdout) as { analysis?: { problems?: { kind: string; resolutionKind?: string; entrypoint?: string }[] } };
    const problems = (report.analysis?.problems ?? []).map((p) => `${p.kind} ${p.entrypoint ?? ''} ${p.resolutionKind ?? ''}`.trim());
    expect(problems).toEqual([]);
  });
});

describe.runIf(subpaths.length > 0)('the subpath exports, installed from the tarballs', () => {
  it.runIf(publishable.some((p) => p.name === '@subnet/bundle'))('are found (@subnet/bundle/records and /epoch-config among them)', () => {
    expect(subpaths).toContain('@subnet/bundle/records');
    expect(subpaths).toContain('@subnet/bundle/epoch-config');
  });

  it.runIf(publishable.some((p) => p.name === '@subnet/chain'))('are found (@subnet/chain/networks among them)', () => {
    expect(subpaths).toContain('@subnet/chain/networks');
  });

  /** The subpaths that exist to be light: each loads no @polkadot module, where its package's root does. */
  const light = [
    ['@subnet/bundle/records', '@subnet/bundle'],
    ['@subnet/bundle/epoch-config', '@subnet/bundle'],
    ['@subnet/chain/networks', '@subnet/chain'],
  ].filter(([subpath]) => subpaths.includes(subpath ?? ''));

  it.each(light)('%s loads no @polkadot module from CommonJS (%s does), and its ESM build imports none', (subpath, root) => {
    const app = join(work, 'app');
    const polkadotLoaded = (code: string, file: string): boolean => {
      writeFileSync(join(app, file), code);
      return run(process.execPath, [file], app).trim() === 'true';
    };
    const cjs = (name: string): string =>
      `require(${JSON.stringify(name)});\nconsole.log(Object.keys(require.cache).some((f) => f.includes('/@polkadot/')));\n`;
    expect(polkadotLoaded(cjs(subpath), 'light-cjs.cjs')).toBe(false);
    expect(polkadotLoaded(cjs(root), 'root-cjs.cjs')).toBe(true);
    // ESM: the built file imports no @polkadot package, directly or through a chunk of its own.
    const [scope = '', name = '', file = ''] = subpath.split('/');
    const text = readFileSync(join(work, 'app', 'node_modules', scope, name, 'dist', `${file}.js`), 'utf8');
    expect(text).not.toContain('@polkadot/');
    expect([...text.matchAll(/from ["'](\.[^"']+)["']/g)].map((m) => m[1])).toEqual([]);
  });
});

describe.runIf(consensusSelected)('@subnet/consensus resolves its internal #hash import to built files', () => {
  it('node:crypto under Node.js from ESM and from CommonJS; the pure-JS build under every other runtime', () => {
    // A module inside the installed package resolves `#hash` through the package's own `imports`, as
    // dist/index.js does (the build keeps `#hash` as an import, so the consumer's runtime picks).
    const installed = join(work, 'app', 'node_modules', '@subnet', 'consensus');
    writeFileSync(join(installed, 'probe.mjs'), "const h = await import('#hash');\nconsole.log(h.HASH_IMPLEMENTATION, h.sha256Hex('abc'));\n");
    writeFileSync(join(installed, 'probe.cjs'), "const h = require('#hash');\nconsole.log(h.HASH_IMPLEMENTATION, h.sha256Hex('abc'));\n");
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(run(process.execPath, ['probe.mjs'], installed).trim()).toBe(`node:crypto ${abc}`);
    expect(run(process.execPath, ['probe.cjs'], installed).trim()).toBe(`node:crypto ${abc}`);
    expect(readFileSync(join(installed, 'dist', 'index.js'), 'utf8')).toMatch(/from ["']#hash["']/);
    // Node.js always sets `node`; for other runtimes read the manifest's fallbacks, and load the
    // portable build directly to show it works and gives the same bytes.
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, Record<string, string>>> };
    const hash = manifest.imports['#hash'] ?? {};
    expect(Object.keys(hash)).toEqual(['node', 'import', 'require']);
    expect(hash.import?.default).toBe('./dist/hash-portable.js');
    expect(hash.require?.default).toBe('./dist/hash-portable.cjs');
    writeFileSync(
      join(installed, 'portable.mjs'),
      "const h = await import('./dist/hash-portable.js');\nconsole.log(h.HASH_IMPLEMENTATION, h.sha256Hex('abc'));\n",
    );
    expect(run(process.execPath, ['portable.mjs'], installed).trim()).toBe(`@noble/hashes ${abc}`);
  });
});

// The code examples of each shipped README, copied into the consumer's project as a user would: `ts`
// blocks are type-checked (strict, node16 ESM) and run by Node.js against the installed tarballs, and
// their `// -> value` comments must hold; `ts no-run` blocks are only type-checked, `ts fragment` blocks
// neither. The convention is in ../readme-examples.ts and the root README ("Writing a package README").
describe('the code examples of every shipped README', () => {
  /** What each README holds, by kind: a block that changes kind shows up here in review. */
  const EXPECTED_BLOCKS: Record<string, Record<ReadmeBlock['kind'], number>> = {
    '@subnet/aggregation': { run: 1, 'no-run': 0, fragment: 0 },
    '@subnet/axon': { run: 1, 'no-run': 0, fragment: 0 },
    '@subnet/bundle': { run: 3, 'no-run': 0, fragment: 0 },
    '@subnet/chain': { run: 1, 'no-run': 2, fragment: 1 },
    '@subnet/composite': { run: 2, 'no-run': 0, fragment: 1 },
    '@subnet/consensus': { run: 3, 'no-run': 0, fragment: 2 },
    '@subnet/core': { run: 5, 'no-run': 0, fragment: 0 },
    '@subnet/devnet': { run: 1, 'no-run': 0, fragment: 0 },
    '@subnet/timelock': { run: 1, 'no-run': 0, fragment: 0 },
    '@subnet/wallet': { run: 0, 'no-run': 2, fragment: 0 },
  };

  interface Example {
    readonly pkg: string;
    readonly readme: string;
    readonly block: ReadmeBlock;
    readonly file: string;
    readonly expectations: readonly Expectation[];
  }
  const examples: Example[] = [];
  let project = '';
  let typeErrors: string[] = [];

  /** The README path and line of a line of a generated file (the program keeps the block's lines). */
  const readmeLine = (example: Example, programLine: number): string => `${example.readme}:${String(example.block.line + programLine)}`;

  beforeAll(() => {
    project = join(work, 'app', 'readme-examples');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }));
    writeFileSync(join(project, 'readme-check.mjs'), CHECKER_SOURCE);
    writeFileSync(join(project, 'readme-check.d.mts'), CHECKER_TYPES);
    for (const pkg of publishable) {
      const readme = `packages/${pkg.dir.split('/').at(-1) ?? ''}/README.md`;
      for (const block of readmeBlocks(readFileSync(join(unpacked.get(pkg.name) ?? '', 'README.md'), 'utf8'))) {
        if (block.kind === 'fragment') {
          examples.push({ pkg: pkg.name, readme, block, file: '', expectations: [] });
          continue;
        }
        const base = `${pkg.name.replace(/\W/g, '_')}-L${String(block.line)}`;
        const { program, expectations } = checkedProgram(block, './readme-check.mjs');
        const file = block.language === 'ts' ? `${base}.mts` : `${base}.mjs`;
        writeFileSync(join(project, file), block.language === 'ts' ? `${program}export {};\n` : program);
        examples.push({ pkg: pkg.name, readme, block, file, expectations });
      }
    }
    const files = examples.filter((e) => e.file.endsWith('.mts')).map((e) => e.file);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], rootDir: '.' },
        files,
      }),
    );
    // One compiler run type-checks every block and emits the JavaScript that Node.js runs (it emits even
    // when a block has type errors, so each block still runs and reports its own failures).
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
    typeErrors = result.stdout
      .split('\n')
      .filter((line) => /error TS\d+/.test(line))
      .map((line) => {
        const at = /^([^(]+)\((\d+),\d+\): (.*)$/.exec(line);
        const example = examples.find((e) => e.file === at?.[1]);
        return example === undefined || at === null ? line : `${readmeLine(example, Number(at[2]))} ${at[3] ?? ''}`;
      });
  }, 300_000);

  it('marks every TypeScript and JavaScript block as run, no-run or fragment, in the counts expected', () => {
    const counts: Record<string, Record<string, number>> = {};
    for (const { pkg, block } of examples) {
      const of = (counts[pkg] ??= { run: 0, 'no-run': 0, fragment: 0 });
      of[block.kind] = (of[block.kind] ?? 0) + 1;
    }
    for (const pkg of publishable) counts[pkg.name] ??= { run: 0, 'no-run': 0, fragment: 0 };
    expect(counts).toEqual(Object.fromEntries(publishable.map((p) => [p.name, EXPECTED_BLOCKS[p.name]])));
  });

  // The consumer project holds every package and its peers, so an example could import what its own
  // package does not bring (a dependency of a dependency, or another package's peer) and still pass here.
  // A user who installs only this package gets its peers (npm 7+, pnpm) and what the README's install line
  // names; nothing else is importable under pnpm's strict node_modules.
  it('imports only its own package, its peers, Node.js builtins and what the README install line adds', () => {
    const stray: string[] = [];
    for (const pkg of publishable) {
      const readme = readFileSync(join(unpacked.get(pkg.name) ?? '', 'README.md'), 'utf8');
      const allowed = new Set([pkg.name, ...Object.keys(pkg.manifest.peerDependencies ?? {}), ...installedByReadme(readme)]);
      for (const { block, readme: path } of examples.filter((e) => e.pkg === pkg.name && e.block.kind !== 'fragment'))
        for (const name of importedPackages(block.code)) if (!allowed.has(name)) stray.push(`${path}:${String(block.line)} imports ${name}`);
    }
    expect(stray).toEqual([]);
  });

  it('type-checks every run and no-run block under TypeScript strict', () => {
    expect(typeErrors).toEqual([]);
  });

  it.each(publishable.map((p) => [p.name]))('%s: every run block runs and its // -> comments hold', (name) => {
    for (const example of examples.filter((e) => e.pkg === name && e.block.kind === 'run')) {
      const file = example.file.replace(/\.mts$/, '.mjs');
      const checked = join(project, `${file}.checked.json`);
      const result = spawnSync(process.execPath, [file], {
        cwd: project,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, README_CHECKED: checked },
      });
      const where = `${example.readme}:${String(example.block.line)}`;
      expect(result.status, `${where} exits 0\n${result.stdout}\n${result.stderr}`).toBe(0);
      const ran = existsSync(checked) ? (JSON.parse(readFileSync(checked, 'utf8')) as number[]) : [];
      const unchecked = example.expectations.map((x) => x.readmeLine).filter((line) => !ran.includes(line));
      expect(unchecked, `${where}: the // -> lines that never ran`).toEqual([]);
    }
  });
});

// The dual-package hazard: one project loads @subnet/core through `import` and @subnet/consensus through
// `require` (each resolves to its own build, so there are two SubnetError classes), or the reverse. The
// READMEs tell users to recognise errors with isSubnetError(error, code) and never instanceof: this shows
// why (instanceof fails across the two builds) and that the guard and the code hold both ways.
describe.runIf(consensusSelected)('an error thrown by one module format, recognised through the other', () => {
  it('isSubnetError(error, code) and error.code hold both ways; instanceof SubnetError does not', () => {
    const app = join(work, 'app');
    writeFileSync(
      join(app, 'dual.mjs'),
      `import { createRequire } from 'node:module';
import * as coreEsm from '@subnet/core';
import * as consensusEsm from '@subnet/consensus';
const require = createRequire(import.meta.url);
const coreCjs = require('@subnet/core');
const consensusCjs = require('@subnet/consensus');
const thrown = (lookup) => { try { lookup({ mcp_server: -1 }, 'mcp_server', 1, 'base_weights'); } catch (e) { return e; } };
const out = { sameClass: coreEsm.SubnetError === coreCjs.SubnetError };
for (const [label, error, core] of [['require', thrown(consensusCjs.lookupFactor), coreEsm], ['import', thrown(consensusEsm.lookupFactor), coreCjs]])
  out[label] = { instanceOf: error instanceof core.SubnetError, guard: core.isSubnetError(error, 'CONSENSUS_INVALID_FACTOR'), code: error.code };
console.log(JSON.stringify(out));
`,
    );
    const seen = { instanceOf: false, guard: true, code: 'CONSENSUS_INVALID_FACTOR' };
    expect(JSON.parse(run(process.execPath, ['dual.mjs'], app))).toEqual({ sameClass: false, require: seen, import: seen });
  });
});
