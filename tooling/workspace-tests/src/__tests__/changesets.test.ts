import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { dependentsOf, root, workspacePackages } from '../workspace.js';

// A real dry run of `changeset version` on a copy of this workspace's manifests: a patch changeset for one
// package must bump exactly that package and the packages that depend on it, nothing else.
const packages = workspacePackages();
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A scratch copy of the workspace's manifests and changeset config, committed in a fresh git repo. */
function scratchWorkspace(changesets: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'subnet-changesets-'));
  scratch.push(dir);
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(dir, file));
  mkdirSync(join(dir, '.changeset'));
  cpSync(join(root, '.changeset', 'config.json'), join(dir, '.changeset', 'config.json'));
  for (const pkg of packages) {
    mkdirSync(join(dir, pkg.relativeDir), { recursive: true });
    cpSync(join(pkg.dir, 'package.json'), join(dir, pkg.relativeDir, 'package.json'));
  }
  for (const [file, text] of Object.entries(changesets)) writeFileSync(join(dir, '.changeset', file), text);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=ci', '-c', 'user.email=ci@invalid', 'commit', '-qm', 'dry run');
  execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['version'], { cwd: dir, stdio: 'pipe' });
  return dir;
}

function versionsIn(dir: string): Map<string, string> {
  return new Map(
    packages.map((pkg) => [pkg.manifest.name, (JSON.parse(readFileSync(join(dir, pkg.relativeDir, 'package.json'), 'utf8')) as { version: string }).version]),
  );
}

function versionAfterChangeset(target: string): Map<string, string> {
  return versionsIn(scratchWorkspace({ 'dry-run.md': `---\n"${target}": patch\n---\n\nFixes a thing (dry run).\n` }));
}

describe('changeset version bumps only the changed package and its dependents', () => {
  const targets = ['@subnet/core', '@subnet/aggregation'].filter((name) => packages.some((p) => p.manifest.name === name));
  it.each(targets)('a patch changeset for %s', (target) => {
    const expected = new Set([target, ...dependentsOf(target, packages)]);
    const after = versionAfterChangeset(target);
    const bumped = new Set(packages.filter((p) => after.get(p.manifest.name) !== p.manifest.version).map((p) => p.manifest.name));
    expect([...bumped].sort()).toEqual([...expected].sort());
    // and only by a patch
    for (const name of bumped) {
      const before = packages
        .find((p) => p.manifest.name === name)!
        .manifest.version.split('.')
        .map(Number);
      expect(after.get(name)).toBe(`${before[0]}.${before[1]}.${before[2]! + 1}`);
    }
  });

  it('the obvious dependency walk agrees with the manifests (core is below every library)', () => {
    const libraries = packages.filter((p) => p.group === 'packages' && p.manifest.name !== '@subnet/core').map((p) => p.manifest.name);
    const dependents = dependentsOf('@subnet/core', packages);
    for (const name of libraries) expect(dependents.has(name), name).toBe(true);
  });
});

describe("the first release (a dry run of `changeset version` with the repository's own changesets)", () => {
  const pending = Object.fromEntries(
    readdirSync(join(root, '.changeset'))
      .filter((file) => file.endsWith('.md') && file !== 'README.md')
      .map((file) => [file, readFileSync(join(root, '.changeset', file), 'utf8')]),
  );
  const publishable = packages.filter((p) => p.group === 'packages' && p.manifest.private !== true);

  it('versions every publishable package 0.1.0 with a changelog that holds its changesets', () => {
    expect(Object.keys(pending).length).toBeGreaterThan(0);
    const dir = scratchWorkspace(pending);
    const after = versionsIn(dir);
    for (const pkg of publishable) {
      expect(`${pkg.manifest.name}@${after.get(pkg.manifest.name) ?? '?'}`).toBe(`${pkg.manifest.name}@0.1.0`);
      const changelog = join(dir, pkg.relativeDir, 'CHANGELOG.md');
      expect(existsSync(changelog), `${pkg.manifest.name} has a CHANGELOG.md`).toBe(true);
      const text = readFileSync(changelog, 'utf8');
      expect(text).toContain('## 0.1.0');
      // Every changeset that names the package appears in its changelog (first line of its summary).
      for (const body of Object.values(pending)) {
        const [, front = '', summary = ''] = /^---\n([\s\S]*?)\n---\n+([\s\S]*)$/.exec(body) ?? [];
        if (!front.includes(`"${pkg.manifest.name}"`)) continue;
        const firstLine = summary.trim().split('\n')[0] ?? '';
        expect(text, `${pkg.manifest.name}'s changelog holds "${firstLine.slice(0, 60)}"`).toContain(firstLine);
      }
    }
    // The release consumes the changesets.
    expect(readdirSync(join(dir, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md')).toEqual([]);
  });
});
