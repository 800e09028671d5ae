import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A workspace package as its manifest describes it. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly relativeDir: string;
  readonly group: 'packages' | 'apps' | 'tooling';
  readonly manifest: Manifest;
}

/** The parts of package.json these tests read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly type?: string;
  readonly sideEffects?: boolean;
  readonly exports?: Record<string, unknown>;
  readonly files?: string[];
  readonly engines?: { node?: string };
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** Every workspace package, in a stable order. */
export function workspacePackages(base = root): WorkspacePackage[] {
  const groups = ['packages', 'apps', 'tooling'] as const;
  return groups.flatMap((group) => {
    const groupDir = join(base, group);
    if (!existsSync(groupDir)) return [];
    return readdirSync(groupDir)
      .sort()
      .map((name) => join(groupDir, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => ({
        dir,
        relativeDir: `${group}/${dir.slice(groupDir.length + 1)}`,
        group,
        manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
      }));
  });
}

/** Names of the packages that depend on `name` (runtime dependencies, transitively), `name` excluded. */
export function dependentsOf(name: string, packages: readonly WorkspacePackage[]): Set<string> {
  const found = new Set<string>();
  let frontier = [name];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const pkg of packages) {
      const deps = { ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies };
      if (found.has(pkg.manifest.name) || pkg.manifest.name === name) continue;
      if (frontier.some((dep) => dep in deps)) {
        found.add(pkg.manifest.name);
        next.push(pkg.manifest.name);
      }
    }
    frontier = next;
  }
  return found;
}
