#!/usr/bin/env node
// Writes the "Types" section of every publishable package's README: each type the package exports (from
// each of its entry points) with the first paragraph of its doc comment, read from the source with the
// TypeScript compiler. Third parties who install one package read its README, not our source; a type they
// must name in their code (a result, an input, an error code union) belongs there as much as a function.
// Run it after exporting a new type: `node tooling/scripts/readme-types.mjs` (`--check` writes nothing: it names
// the READMEs whose section differs from what it would write, and exits 1 when there are any). Both modes name
// exported values (functions, constants) a README never mentions, and exit 1 for them: those are described by hand.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const root = process.env.README_TYPES_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START = '<!-- exported-types: written by node tooling/scripts/readme-types.mjs from the doc comments in src; edit those, not this table -->';
const END = '<!-- /exported-types -->';

/** A summary longer than this is cut to its first sentence. */
const LONG = 240;

/**
 * The first paragraph of a symbol's doc comment, on one line, as Markdown table text; a long one is cut to its
 * first sentence (a `. ` before a capital letter or a backtick).
 */
function summary(symbol, checker) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  const paragraph = (text.split(/\n\s*\n/)[0] ?? '')
    .replace(/\{@link\s+([^}|\s]+)\s*(?:\|\s*([^}]+?)\s*)?\}/g, (_, target, label) => (label === undefined ? `\`${target}\`` : label))
    .replace(/\s+/g, ' ')
    .trim();
  const end = paragraph.length > LONG ? paragraph.search(/\. (?=[A-Z`])/) : -1;
  return (end === -1 ? paragraph : paragraph.slice(0, end + 1)).replace(/\|/g, '\\|');
}

/** The exports of one entry point, in the order the module exports them: types with their summary, and values. */
function exportsOf(program, checker, file) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${file}: the compiler found no module there`);
  const types = [];
  const values = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (target.flags & ts.SymbolFlags.Value) values.push(exported.getName());
    else types.push({ name: exported.getName(), text: summary(target, checker) || summary(exported, checker) });
  }
  return { types, values };
}

/**
 * Value exports (functions, constants, classes) the README does not name anywhere (in prose, inline code or an
 * example): those are described by hand, so this only finds the ones forgotten.
 */
export function unnamedValues(dir, program = typesProgram([dir])) {
  const { files } = entryPoints(dir);
  const checker = program.getTypeChecker();
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const named = new Set(readme.match(/[A-Za-z_$][\w$]*/g));
  return [...new Set(files.flatMap((file) => exportsOf(program, checker, file).values))].filter((name) => !named.has(name));
}

/** A package's entry points: its manifest's `exports` keys, each with its source file. */
function entryPoints(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const subpaths = Object.keys(manifest.exports ?? { '.': '' }).filter((key) => key !== './package.json');
  return { manifest, subpaths, files: subpaths.map((key) => join(dir, 'src', key === '.' ? 'index.ts' : `${key.slice(2)}.ts`)) };
}

/**
 * One compiler program over the entry points of every package given. Listing exports and reading doc comments
 * needs no type checking, so the standard library and ambient `@types` are left out (a program per package with
 * them took about a minute for ten packages).
 */
export function typesProgram(dirs) {
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    noLib: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  // Only the package's own files: reading @polkadot's declarations only to skip them took most of the time. An
  // export re-exported from another package (`redactUrl` of @subnet/chain) is not resolved, so it is listed with
  // the values, which a README must name by hand.
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) =>
      literal.text.startsWith('.') ? ts.resolveModuleName(literal.text, containingFile, options, host) : { resolvedModule: undefined },
    );
  return ts.createProgram(
    dirs.flatMap((dir) => entryPoints(dir).files),
    options,
    host,
  );
}

/** The section a package's README should hold, or '' when it exports no type. */
export function typesSection(dir, program = typesProgram([dir])) {
  const { manifest, subpaths, files } = entryPoints(dir);
  const checker = program.getTypeChecker();
  const rows = new Map();
  subpaths.forEach((key, i) => {
    const from = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
    for (const { name, text } of exportsOf(program, checker, files[i]).types) {
      const row = rows.get(name);
      if (row === undefined) rows.set(name, { text, from: [from] });
      else row.from.push(from);
    }
  });
  if (rows.size === 0) return '';
  const several = subpaths.length > 1;
  const lines = [
    START,
    '## Types',
    '',
    `Every type the package exports, with the summary of its doc comment (the declarations ship in \`dist/*.d.ts\` and \`dist/*.d.cts\`; import them with \`import type { … } from '${manifest.name}'\`${several ? ', or from the entry point named' : ''}).`,
    '',
    several ? '| Type | Entry point | What it is |' : '| Type | What it is |',
    several ? '| ---- | ----------- | ---------- |' : '| ---- | ---------- |',
  ];
  for (const [name, { text, from }] of [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const what = text === '' ? '(no doc comment)' : text;
    lines.push(several ? `| \`${name}\` | ${from.map((f) => `\`${f}\``).join(', ')} | ${what} |` : `| \`${name}\` | ${what} |`);
  }
  lines.push(END);
  return `${lines.join('\n')}\n`;
}

/** The README text with its section replaced (or appended when it has none). */
export function withSection(readme, section) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) return section === '' ? readme : `${readme.replace(/\n*$/, '\n')}\n${section}`;
  const after = readme.slice(end + END.length).replace(/^\n/, '');
  return `${readme.slice(0, start)}${section}${after}`;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const check = process.argv.includes('--check');
  const stale = [];
  const unnamed = [];
  const packagesDir = join(root, 'packages');
  const names = readdirSync(packagesDir)
    .sort()
    .filter(
      (name) => existsSync(join(packagesDir, name, 'src', 'index.ts')) && !JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')).private,
    );
  const program = typesProgram(names.map((name) => join(packagesDir, name)));
  for (const name of names) {
    const dir = join(packagesDir, name);
    const file = join(dir, 'README.md');
    const readme = readFileSync(file, 'utf8');
    for (const value of unnamedValues(dir, program)) unnamed.push(`${value} (packages/${name}/README.md)`);
    const next = withSection(readme, typesSection(dir, program));
    if (next === readme) continue;
    stale.push(`packages/${name}/README.md`);
    if (!check) writeFileSync(file, next);
  }
  // Values are described by hand: this names the ones a README forgot, in both modes.
  if (unnamed.length > 0) process.stderr.write(`exported values no README names: ${unnamed.join(', ')} (describe each in its package's README)\n`);
  if (check && stale.length > 0) {
    process.stderr.write(
      `READMEs whose Types section differs from the source's exported types: ${stale.join(', ')} (run node tooling/scripts/readme-types.mjs)\n`,
    );
  }
  if (unnamed.length > 0 || (check && stale.length > 0)) process.exit(1);
  if (!check) process.stdout.write(stale.length === 0 ? 'every README Types section is up to date\n' : `wrote the Types section of ${stale.join(', ')}\n`);
}
