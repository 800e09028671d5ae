import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { root, workspacePackages } from '../workspace.js';

const packages = workspacePackages();
const libraries = packages.filter((p) => p.group === 'packages');
const apps = packages.filter((p) => p.group === 'apps');

describe('the workspace layout (issue: workspace foundation, item 1)', () => {
  it.each(['package.json', 'pnpm-workspace.yaml', 'turbo.json', 'tsconfig.base.json', 'README.md', '.ci/run', '.changeset/config.json'])(
    'has %s at the top level',
    (file) => {
      expect(existsSync(join(root, file))).toBe(true);
    },
  );

  it('pins pnpm through packageManager', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager?: string };
    expect(manifest.packageManager).toMatch(/^pnpm@\d+\.\d+\.\d+$/);
  });

  it('disables turbo telemetry in every root script that calls turbo', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const turboScripts = Object.entries(manifest.scripts).filter(([, command]) => /\bturbo\b/.test(command));
    expect(turboScripts.length).toBeGreaterThan(0);
    for (const [name, command] of turboScripts) expect(`${name}: ${command}`).toContain('TURBO_TELEMETRY_DISABLED=1');
  });

  it('has turbo build, test, lint, typecheck and an uncached bench, with ^build and declared outputs', () => {
    const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8')) as {
      tasks: Record<string, { dependsOn?: string[]; inputs?: string[]; outputs?: string[]; cache?: boolean }>;
    };
    for (const task of ['build', 'test', 'lint', 'typecheck', 'bench']) expect(turbo.tasks).toHaveProperty(task);
    expect(turbo.tasks.build?.dependsOn).toContain('^build');
    // The build writes dist/ and copies docs/spec.md into each package (tooling/tsup-config): a cache hit
    // (worktrees share one cache) must restore both, and an edit of the spec must rebuild.
    expect(turbo.tasks.build?.outputs).toEqual(['dist/**', 'docs/**']);
    expect(turbo.tasks.build?.inputs).toContain('$TURBO_ROOT$/docs/spec.md');
    expect(turbo.tasks.bench?.cache).toBe(false);
  });

  it('npm start builds JavaScript only: main.mjs sets SUBNET_BUILD=js, turbo passes it to the build and keys its cache on it, the preset drops declarations', async () => {
    // turbo 2 runs tasks in strict environment mode: a variable not declared in turbo.json never reaches tsup, and the
    // cache would hand the declaration-less build to `npm test`, whose consumer test packs the declarations.
    const turbo = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8')) as { tasks: Record<string, { env?: string[] }> };
    expect(turbo.tasks.build?.env).toContain('SUBNET_BUILD');
    expect(readFileSync(join(root, 'tooling', 'scripts', 'main.mjs'), 'utf8')).toMatch(/SUBNET_BUILD: 'js'/);
    const preset = (await import(join(root, 'tooling', 'tsup-config', 'index.js'))) as {
      packageConfig(options?: Record<string, unknown>): { dts: unknown; format: string[] };
    };
    const before = process.env.SUBNET_BUILD;
    try {
      delete process.env.SUBNET_BUILD;
      expect(preset.packageConfig({ nodeTypes: true })).toMatchObject({ dts: { banner: '/// <reference types="node" />' }, format: ['esm', 'cjs'] });
      process.env.SUBNET_BUILD = 'js';
      expect(preset.packageConfig({ nodeTypes: true })).toMatchObject({ dts: false, format: ['esm'] });
    } finally {
      if (before === undefined) delete process.env.SUBNET_BUILD;
      else process.env.SUBNET_BUILD = before;
    }
  });

  it('versions each package on its own, apps included', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset', 'config.json'), 'utf8')) as {
      fixed: unknown[];
      linked: unknown[];
      privatePackages: { version: boolean; tag: boolean };
    };
    expect(config.fixed).toEqual([]);
    expect(config.linked).toEqual([]);
    expect(config.privatePackages).toEqual({ version: true, tag: true });
  });
});

describe.each(libraries.map((p) => [p.manifest.name, p] as const))('library %s follows the package anatomy', (_name, pkg) => {
  const m = pkg.manifest;
  it('is ESM-first, side-effect free, for Node >= 20.19, shipping dist, docs and a LICENSE', () => {
    expect(m.type).toBe('module');
    expect(m.sideEffects).toBe(false);
    expect(m.engines?.node).toBe('>=20.19');
    expect(m.files?.includes('dist')).toBe(true);
    expect(m.files?.includes('docs')).toBe(true);
    expect(existsSync(join(pkg.dir, 'LICENSE'))).toBe(true);
    expect(m.private).toBeUndefined();
  });
  it('exports the scoped source condition first (tests run from source), then ESM and CommonJS each with its own types', () => {
    const main = m.exports?.['.'] as Record<string, unknown>;
    expect(Object.keys(main)).toEqual(['@subnet/source', 'import', 'require']);
    expect(main['@subnet/source']).toBe('./src/index.ts');
    expect(main.import).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(main.require).toEqual({ types: './dist/index.d.cts', default: './dist/index.cjs' });
    expect(m.exports?.['./package.json']).toBe('./package.json');
  });
  it('publishes exports without the workspace-only source condition', () => {
    const published = (m as { publishConfig?: { exports?: Record<string, unknown> } }).publishConfig?.exports;
    expect(published).toBeDefined();
    expect(JSON.stringify(published)).not.toContain('source');
    expect(JSON.stringify(published)).not.toContain('src/');
  });
  it('names its repository, homepage, bugs and keywords', () => {
    const meta = m as { repository?: { directory?: string }; homepage?: string; bugs?: { url?: string }; keywords?: string[] };
    expect(meta.repository?.directory).toBe(pkg.relativeDir);
    expect(meta.homepage).toMatch(/^https:\/\//);
    expect(meta.bugs?.url).toMatch(/^https:\/\//);
    expect(meta.keywords?.length).toBeGreaterThan(0);
  });
  it('lets consumers share zod and @polkadot: those are peer dependencies, other versions are ranges', () => {
    const deps = m.dependencies ?? {};
    for (const name of Object.keys(deps)) expect(name === 'zod' || name.startsWith('@polkadot/'), name).toBe(false);
    for (const [name, range] of Object.entries(deps)) expect(`${name}@${range}`).toMatch(/@(workspace:\^|\^)/);
  });
  it('builds with the shared tsup preset and tests with the shared vitest preset', () => {
    expect(readFileSync(join(pkg.dir, 'tsup.config.ts'), 'utf8')).toContain('@subnet/tsup-config');
    expect(readFileSync(join(pkg.dir, 'vitest.config.ts'), 'utf8')).toContain('@subnet/vitest-config');
  });
  it('has a README', () => {
    expect(existsSync(join(pkg.dir, 'README.md'))).toBe(true);
  });
  it('extends the strict base tsconfig', () => {
    expect(readFileSync(join(pkg.dir, 'tsconfig.json'), 'utf8')).toContain('../../tsconfig.base.json');
  });
});

describe.each(apps.map((p) => [p.manifest.name, p] as const))('app %s', (_name, pkg) => {
  it('is private but versioned', () => {
    expect(pkg.manifest.private).toBe(true);
    expect(pkg.manifest.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('tooling/scripts/publish-manifest.mjs', () => {
  const script = join(root, 'tooling', 'scripts', 'publish-manifest.mjs');

  it('would change no manifest: each is in the shape it writes, subpath exports and published imports kept', () => {
    const run = spawnSync(process.execPath, [script, '--check'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('--check names a manifest that lost its shape, and writes nothing', () => {
    // A copy of the workspace's packages folder with one manifest changed, checked by a copy of the script.
    const copy = mkdtempSync(join(tmpdir(), 'publish-manifest-'));
    try {
      mkdirSync(join(copy, 'tooling', 'scripts'), { recursive: true });
      cpSync(script, join(copy, 'tooling', 'scripts', 'publish-manifest.mjs'));
      cpSync(join(root, 'LICENSE'), join(copy, 'LICENSE'));
      for (const pkg of libraries) {
        mkdirSync(join(copy, 'packages', pkg.relativeDir.split('/').at(-1)!), { recursive: true });
        cpSync(join(pkg.dir, 'package.json'), join(copy, 'packages', pkg.relativeDir.split('/').at(-1)!, 'package.json'));
      }
      const bundle = join(copy, 'packages', 'bundle', 'package.json');
      const manifest = JSON.parse(readFileSync(bundle, 'utf8')) as { publishConfig: { exports: Record<string, unknown> } };
      delete manifest.publishConfig.exports['./records'];
      const changed = `${JSON.stringify(manifest, null, 2)}\n`;
      writeFileSync(bundle, changed);
      const run = spawnSync(process.execPath, [join(copy, 'tooling', 'scripts', 'publish-manifest.mjs'), '--check'], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('manifests not in the published shape: @subnet/bundle (run node tooling/scripts/publish-manifest.mjs)');
      expect(readFileSync(bundle, 'utf8')).toBe(changed);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

it('TypeScript is strict everywhere', () => {
  const base = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { strict: boolean } };
  expect(base.compilerOptions.strict).toBe(true);
  for (const pkg of packages) {
    const file = join(pkg.dir, 'tsconfig.json');
    if (!existsSync(file)) continue;
    expect(readFileSync(file, 'utf8'), pkg.relativeDir).not.toMatch(/"strict"\s*:\s*false/);
  }
});
