// The code examples of a package README, as the consumer test runs them. The convention (documented in the
// root README, "Writing a package README"):
//
// - A fence labelled `ts` (or `js`) is a program: it is type-checked (TypeScript strict) and run by Node.js
//   as an ES module against the installed tarballs, and its `// -> value` comments are checked.
// - `ts no-run` is type-checked but not run (it needs a live chain, a wallet file, ...).
// - `ts fragment` is neither: a signature, a shape, or lines that use names from the text around them.
// - `// -> value` ends a line holding one whole statement:
//     `expression; // -> value`                 the expression deep-equals the JavaScript value
//     `const name = expression; // -> value`    the same, for the declared name
//     `console.log(a, b); // -> text`           the call prints exactly this text (one line)
//   Every such line must run at least once.

/** How a fenced block is treated. */
export type BlockKind = 'run' | 'no-run' | 'fragment';

export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: 'ts' | 'js';
  readonly kind: BlockKind;
  readonly code: string;
}

const CODE_LANGUAGES: Readonly<Record<string, 'ts' | 'js'>> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js', mjs: 'js' };

/**
 * Every fenced TypeScript or JavaScript block of a markdown text. A label after the language other than
 * `no-run` or `fragment` throws, so a typo cannot turn an example off silently.
 */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let open: { line: number; fence: string; info: string; body: string[] } | undefined;
  lines.forEach((text, i) => {
    if (open === undefined) {
      const start = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(text);
      if (start !== null) open = { line: i + 1, fence: start[1] ?? '', info: (start[2] ?? '').trim(), body: [] };
      return;
    }
    if (new RegExp(`^ {0,3}${open.fence[0] === '`' ? '`' : '~'}{${String(open.fence.length)},}\\s*$`).test(text)) {
      const [word = '', ...rest] = open.info.split(/\s+/);
      const language = CODE_LANGUAGES[word.toLowerCase()];
      if (language !== undefined) {
        const label = rest.join(' ');
        const kind: BlockKind = label === '' ? 'run' : label.startsWith('no-run') ? 'no-run' : label === 'fragment' ? 'fragment' : 'run';
        if (label !== '' && kind === 'run') throw new Error(`line ${String(open.line)}: unknown label "${label}" on a ${word} block (use no-run or fragment)`);
        blocks.push({ line: open.line, language, kind, code: open.body.join('\n') });
      }
      open = undefined;
      return;
    }
    open.body.push(text);
  });
  if (open !== undefined) throw new Error(`line ${String(open.line)}: a code fence is never closed`);
  return blocks;
}

/** A `// -> value` line of a block: its README line and what it checks. */
export interface Expectation {
  readonly readmeLine: number;
  readonly kind: 'value' | 'print';
}

const ARROW = '// -> ';

/**
 * The program that runs a block: the same lines (so TypeScript and Node.js report README line numbers
 * minus the fence), each `// -> value` line rewritten into a call of the checker, which is imported at
 * the end (imports are hoisted).
 */
export function checkedProgram(block: ReadmeBlock, checker: string): { program: string; expectations: Expectation[] } {
  const expectations: Expectation[] = [];
  const lines = block.code.split('\n').map((text, i) => {
    const at = text.indexOf(ARROW);
    if (at === -1) return text;
    const readmeLine = block.line + 1 + i;
    const code = text.slice(0, at).trimEnd();
    const expected = text.slice(at + ARROW.length).trim();
    const indent = /^\s*/.exec(code)?.[0] ?? '';
    const statement = code.trim();
    if (!statement.endsWith(';')) throw new Error(`README line ${String(readmeLine)}: a "${ARROW}" line must hold one whole statement ending in ";"`);
    const body = statement.slice(0, -1);
    const log = /^console\.log\((.*)\)$/.exec(body);
    if (log !== null) {
      expectations.push({ readmeLine, kind: 'print' });
      return `${indent}__readmePrint(${String(readmeLine)}, ${JSON.stringify(expected)}, ${log[1] ?? ''});`;
    }
    expectations.push({ readmeLine, kind: 'value' });
    const declaration = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=/.exec(body);
    if (declaration !== null) return `${indent}${body}; __readmeValue(${String(readmeLine)}, ${declaration[1] ?? ''}, (${expected}));`;
    return `${indent}__readmeValue(${String(readmeLine)}, (${body}), (${expected}));`;
  });
  lines.push(`import { __readmePrint, __readmeValue } from '${checker}';`);
  return { program: `${lines.join('\n')}\n`, expectations };
}

/**
 * The checker module every program imports: it compares, reports each mismatch on stderr, sets a failing
 * exit code, and writes the README lines it checked to `$README_CHECKED` when the process exits.
 */
export const CHECKER_SOURCE = `import { writeFileSync } from 'node:fs';
import { format, inspect, isDeepStrictEqual } from 'node:util';

const checked = new Set();
process.on('exit', () => {
  if (process.env.README_CHECKED) writeFileSync(process.env.README_CHECKED, JSON.stringify([...checked]));
});

function fail(line, what) {
  console.error(\`README line \${line}: \${what}\`);
  process.exitCode = 1;
}

export function __readmeValue(line, actual, expected) {
  checked.add(line);
  if (!isDeepStrictEqual(actual, expected))
    fail(line, \`expected \${inspect(expected, { depth: 8, breakLength: Infinity })}, got \${inspect(actual, { depth: 8, breakLength: Infinity })}\`);
}

export function __readmePrint(line, expected, ...args) {
  checked.add(line);
  const text = format(...args); // what console.log writes to a pipe
  console.log(text);
  if (text !== expected) fail(line, \`expected to print \${JSON.stringify(expected)}, printed \${JSON.stringify(text)}\`);
}
`;

export const CHECKER_TYPES = `export declare function __readmeValue(line: number, actual: unknown, expected: unknown): void;
export declare function __readmePrint(line: number, expected: string, ...args: unknown[]): void;
`;

/** The packages a block imports by bare name (`node:` builtins left out), in order of appearance. */
export function importedPackages(code: string): string[] {
  const names = [...code.matchAll(/(?:^|\s)(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
  const packages = names
    .filter((n) => !n.startsWith('.') && !n.startsWith('node:'))
    .map((n) =>
      n
        .split('/')
        .slice(0, n.startsWith('@') ? 2 : 1)
        .join('/'),
    );
  return [...new Set(packages)];
}

/** The packages a README's install lines (`pnpm add ...`, `npm install ...`) name. */
export function installedByReadme(markdown: string): string[] {
  return [...markdown.matchAll(/^(?:pnpm add|npm i|npm install|yarn add)\s+(.+)$/gm)].flatMap((m) =>
    (m[1] ?? '')
      .replace(/\s#.*$/, '')
      .trim()
      .split(/\s+/)
      .filter((w) => !w.startsWith('-')),
  );
}
