#!/usr/bin/env node
// Brings every publishable package's manifest to the one shape third parties need (issue: packages a
// third party can install): ESM and CommonJS entry points with their own declarations, the private
// `@subnet/source` condition only in the workspace (`publishConfig.exports` replaces `exports` when
// pnpm packs), repository/homepage/bugs/keywords/engines, a LICENSE, and dependency ranges that let a
// consumer share one zod and one @polkadot. Run it after adding a package: `node tooling/scripts/publish-manifest.mjs`
// (`--check` only says whether every manifest already has that shape).
import { copyFileSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPOSITORY = 'https://github.com/subnet-scoring/subnet-scoring';
// Two copies of these break `instanceof` checks or global registries (zod schemas composed by the
// consumer; @polkadot's type registry and crypto initialisation): consumers provide them.
const PEERS = {
  zod: '^4.1.0',
  '@polkadot/api': '^16.5.6',
  '@polkadot/keyring': '^14.0.3',
  '@polkadot/util': '^14.0.3',
  '@polkadot/util-crypto': '^14.0.3',
  '@polkadot/types': '^16.5.6',
  '@polkadot/types-codec': '^16.5.6',
};
const KEYWORDS = ['bittensor', 'subtensor', 'subnet', 'validator', 'scoring'];

function entry(name) {
  return {
    import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
    require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
  };
}

// `--check` writes nothing: it lists the manifests this script would change, and exits 1 when there are any.
const check = process.argv.includes('--check');
const differ = [];
const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'package.json')));
for (const dir of packages) {
  const file = join(root, 'packages', dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest.private) continue;
  // Subpath exports (`./records` of @subnet/bundle) are kept: `src/<name>.ts`, built to `dist/<name>.*`.
  const subpaths = Object.keys(manifest.exports ?? {})
    .filter((key) => key !== '.' && key !== './package.json')
    .map((key) => key.slice(2));
  const published = (name) => [`./${name}`, entry(name)];
  const inWorkspace = (name) => [`./${name}`, { '@subnet/source': `./src/${name}.ts`, ...entry(name) }];
  const exportsPublished = { '.': entry('index'), ...Object.fromEntries(subpaths.map(published)), './package.json': './package.json' };
  const next = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    keywords: [...new Set([...(manifest.keywords ?? []), ...KEYWORDS, dir])],
    homepage: `${REPOSITORY}/tree/main/packages/${dir}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    repository: { type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${dir}` },
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.cts',
    // TypeScript's node10 resolution reads no `exports`: a subpath's types are found through `typesVersions`.
    ...(manifest.typesVersions ? { typesVersions: manifest.typesVersions } : {}),
    exports: {
      '.': { '@subnet/source': './src/index.ts', ...entry('index') },
      ...Object.fromEntries(subpaths.map(inWorkspace)),
      './package.json': './package.json',
    },
    ...(manifest.imports ? { imports: manifest.imports } : {}),
    ...(manifest.bin ? { bin: manifest.bin } : {}),
    files: [...new Set([...(manifest.files ?? ['dist']).filter((f) => f !== 'docs'), 'docs'])],
    engines: { node: '>=20.19' },
    publishConfig: {
      access: 'public',
      exports: exportsPublished,
      // The published `imports` name built files only (@subnet/consensus's `#hash`).
      ...(manifest.publishConfig?.imports ? { imports: manifest.publishConfig.imports } : {}),
    },
    scripts: { ...manifest.scripts },
  };
  const deps = { ...manifest.dependencies };
  const peers = { ...manifest.peerDependencies };
  const devDeps = { ...manifest.devDependencies };
  for (const [name, version] of Object.entries(deps)) {
    if (version.startsWith('workspace:')) continue;
    if (name in PEERS) {
      peers[name] = PEERS[name];
      devDeps[name] = version.replace(/^\^/, '');
      delete deps[name];
    } else if (/^\d/.test(version)) deps[name] = `^${version}`;
  }
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  if (Object.keys(deps).length > 0) next.dependencies = sorted(deps);
  if (Object.keys(peers).length > 0) next.peerDependencies = sorted(peers);
  next.devDependencies = sorted(devDeps);
  for (const key of Object.keys(manifest)) if (!(key in next) && !['main', 'types', 'module'].includes(key)) next[key] = manifest[key];
  const text = `${JSON.stringify(next, null, 2)}\n`;
  if (check) {
    if (readFileSync(file, 'utf8') !== text) differ.push(manifest.name);
    continue;
  }
  writeFileSync(file, text);
  copyFileSync(join(root, 'LICENSE'), join(root, 'packages', dir, 'LICENSE'));
}
if (check) {
  if (differ.length > 0) {
    console.error(`manifests not in the published shape: ${differ.join(', ')} (run node tooling/scripts/publish-manifest.mjs)`);
    process.exit(1);
  }
  console.log(`manifests in the published shape: ${packages.join(', ')}`);
} else console.log(`manifests written: ${packages.join(', ')}`);
