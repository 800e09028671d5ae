// The READMEs a new user reads must name what the code has: every relative link resolves (a linked heading
// included), every error code a package or app raises is in its README, every test file a README or the spec
// cites exists, and every "G.n" of the spec that a README names is a section of it. The published tarballs'
// links are checked again by tooling/consumer-test; this test covers the apps and the root README too, on the
// source tree, without a build.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { headingSlugs } from '@subnet/vitest-config/markdown';
import { describe, expect, it } from 'vitest';

import { root, workspacePackages } from '../workspace.js';

/** Every README of the workspace (root, packages, apps, tooling) and the Markdown files under docs/. */
const markdownFiles: string[] = [
  join(root, 'README.md'),
  ...workspacePackages()
    .map((p) => join(p.dir, 'README.md'))
    .filter((f) => existsSync(f)),
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f)),
];

const rel = (file: string): string => relative(root, file);
const read = (file: string): string => readFileSync(file, 'utf8');
/** Markdown without its fenced code blocks (a link inside a code block is text). */
const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');

/**
 * Where a link's file is. A package's `docs/spec.md` is the build's copy of the repository's (tooling/tsup-config),
 * so before a build the repository's own is read in its place.
 */
function linkTarget(from: string, path: string): string {
  const target = resolve(dirname(from), path);
  if (!existsSync(target) && /^(packages|apps)\/[^/]+\/docs\/spec\.md$/.test(rel(target))) return join(root, 'docs', 'spec.md');
  return target;
}

/** Problems of one Markdown file's relative links: a file that does not exist, or a heading that does not. */
function badLinks(file: string): string[] {
  const problems: string[] = [];
  for (const match of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const [path = '', anchor] = href.split('#');
    const target = path === '' ? file : linkTarget(file, path);
    if (!existsSync(target)) problems.push(`${href}: no such file`);
    else if (anchor !== undefined && target.endsWith('.md') && !headingSlugs(prose(read(target))).has(anchor)) problems.push(`${href}: no such heading`);
  }
  return problems;
}

/**
 * The string values of `export const <name> = Object.freeze({ ... })` (or of a frozen list,
 * `Object.freeze([ ... ])`) in a source file.
 */
function frozenCodes(file: string, name: string): string[] {
  const text = read(join(root, file));
  const start = text.search(new RegExp(`export const ${name}\\b[^=]*= Object\\.freeze\\([[{]`));
  if (start < 0) throw new Error(`${file} has no ${name}`);
  // The value ends at its closing line: `});`, `]);`, or `} as const);` where the codes are typed as literals.
  const end = text.slice(start).search(/\n[}\]]( as const)?\);/);
  if (end < 0) throw new Error(`${file}: the end of ${name} is not found`);
  const body = text.slice(start, start + end);
  return [...body.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1] ?? '');
}

/**
 * The chain README covers the SubtensorModule errors that are not weights errors by a rule, "`CHAIN_` + upper snake
 * case of its name", instead of a row each; those are the names of `otherModuleNames` in error-codes.ts.
 */
function chainCodesCoveredByRule(): Set<string> {
  const text = read(join(root, 'packages/chain/src/error-codes.ts'));
  const start = text.indexOf('const otherModuleNames');
  const names = [...text.slice(start, text.indexOf('];', start)).matchAll(/'([A-Za-z0-9]+)'/g)].map((m) => m[1] ?? '');
  expect(names.length).toBeGreaterThan(100);
  return new Set(names.map((n) => `CHAIN${n.toUpperCase()}`));
}

describe('READMEs and the spec: links', () => {
  it.each(markdownFiles.map((f) => [rel(f), f] as const))('every relative link of %s resolves, headings included', (_name, file) => {
    expect(badLinks(file)).toEqual([]);
  });
});

describe('READMEs: every error code the code raises is documented', () => {
  const cases: { readme: string; codes: () => string[]; except?: () => Set<string> }[] = [
    {
      readme: 'apps/validator/README.md',
      codes: () => [
        ...frozenCodes('apps/validator/src/errors.ts', 'VALIDATOR_ERROR_CODES'),
        ...frozenCodes('apps/validator/src/ingest-checks.ts', 'INGEST_ERROR_CODES'),
        // The HTTP answers' own codes (error bodies and the access log), not fastify's or Node's.
        ...[...read(join(root, 'apps/validator/src/server.ts')).matchAll(/code: '([A-Z][A-Z_]+)'/g)].map((m) => m[1] ?? ''),
        ...[...read(join(root, 'apps/validator/src/access-log.ts')).matchAll(/\[\d{3}, '([A-Z][A-Z_]+)'\]/g)].map((m) => m[1] ?? ''),
      ],
    },
    { readme: 'apps/auditor-replay/README.md', codes: () => frozenCodes('apps/auditor-replay/src/errors.ts', 'AUDITOR_ERROR_CODES') },
    { readme: 'apps/miner-check/README.md', codes: () => frozenCodes('apps/miner-check/src/errors.ts', 'MINER_CHECK_ERROR_CODES') },
    { readme: 'packages/axon/README.md', codes: () => frozenCodes('packages/axon/src/errors.ts', 'AXON_ERROR_CODES') },
    { readme: 'packages/wallet/README.md', codes: () => frozenCodes('packages/wallet/src/errors.ts', 'WALLET_ERROR_CODES') },
    { readme: 'packages/devnet/README.md', codes: () => frozenCodes('packages/devnet/src/errors.ts', 'DEVNET_ERROR_CODES') },
    { readme: 'packages/core/README.md', codes: () => frozenCodes('packages/core/src/error-codes.ts', 'CORE_ERROR_CODES') },
    { readme: 'packages/composite/README.md', codes: () => frozenCodes('packages/composite/src/error-codes.ts', 'COMPOSITE_ERROR_CODES') },
    { readme: 'packages/consensus/README.md', codes: () => frozenCodes('packages/consensus/src/errors.ts', 'CONSENSUS_ERROR_CODES') },
    { readme: 'packages/aggregation/README.md', codes: () => frozenCodes('packages/aggregation/src/errors.ts', 'AGGREGATION_ERROR_CODES') },
    { readme: 'packages/bundle/README.md', codes: () => frozenCodes('packages/bundle/src/errors.ts', 'BUNDLE_ERROR_CODES') },
    { readme: 'packages/timelock/README.md', codes: () => frozenCodes('packages/timelock/src/errors.ts', 'TIMELOCK_ERROR_CODES') },
    {
      readme: 'packages/chain/README.md',
      codes: () => frozenCodes('packages/chain/src/error-codes.ts', 'CHAIN_ERROR_CODES'),
      except: chainCodesCoveredByRule,
    },
  ];
  it.each(cases.map((c) => [c.readme, c] as const))('%s names every code', (readme, c) => {
    const text = read(join(root, readme));
    const codes = [...new Set(c.codes())];
    expect(codes.length).toBeGreaterThan(2);
    const except = c.except?.() ?? new Set<string>();
    const missing = codes.filter((code) => !text.includes(code) && !except.has(code.replace(/_/g, '')));
    expect(missing, `codes of ${readme}'s package that its README does not name`).toEqual([]);
  });
});

describe('READMEs and the spec: what they cite exists', () => {
  const testFiles = new Set<string>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(join(at, entry.name));
      else if (entry.name.endsWith('.ts')) testFiles.add(entry.name);
    }
  };
  for (const group of ['packages', 'apps', 'tooling']) walk(join(root, group));

  it.each(markdownFiles.map((f) => [rel(f), f] as const))('every `*.test.ts` file %s cites exists', (_name, file) => {
    const cited = [...read(file).matchAll(/`(?:[\w./-]+\/)?([\w.-]+\.test(?:-d)?\.ts)`/g)].map((m) => m[1] ?? '');
    expect(cited.filter((name) => !testFiles.has(name))).toEqual([]);
  });

  it('every spec section G.n a README or the spec names is a heading of docs/spec.md', () => {
    const spec = read(join(root, 'docs', 'spec.md'));
    const sections = new Set([...spec.matchAll(/^### (G\.\d+) /gm)].map((m) => m[1]));
    expect(sections.size).toBeGreaterThan(0);
    const unknown = markdownFiles.flatMap((file) =>
      [...read(file).matchAll(/\b(G\.\d+)\b/g)]
        .map((m) => m[1] ?? '')
        .filter((g) => !sections.has(g))
        .map((g) => `${rel(file)}: ${g}`),
    );
    expect(unknown).toEqual([]);
  });
});
