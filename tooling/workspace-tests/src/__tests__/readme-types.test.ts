// A third party who installs one package reads its README: every type the package exports is listed there with
// its doc comment (the Types section tooling/scripts/readme-types.mjs writes), and every exported value is named
// somewhere in it. The script is run on the workspace, and on a copy of one package changed the ways a
// contributor forgets to update a README.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { root } from '../workspace.js';

const script = join(root, 'tooling', 'scripts', 'readme-types.mjs');
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });

describe('tooling/scripts/readme-types.mjs', () => {
  it('finds every README up to date: each exported type in its Types section, each exported value named', () => {
    const result = run(['--check']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  describe('on a copy of @subnet/composite', () => {
    let copy: string | undefined;
    afterEach(() => {
      if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
      copy = undefined;
    });
    const copyComposite = (): { dir: string; readme: string } => {
      copy = mkdtempSync(join(tmpdir(), 'readme-types-'));
      const dir = join(copy, 'packages', 'composite');
      for (const part of ['package.json', 'README.md', 'src']) cpSync(join(root, 'packages', 'composite', part), join(dir, part), { recursive: true });
      return { dir, readme: join(dir, 'README.md') };
    };

    it('names the README when a new exported type is missing from it, and writing adds its row with the doc comment', () => {
      const { dir, readme } = copyComposite();
      writeFileSync(
        join(dir, 'src', 'index.ts'),
        `${readFileSync(join(dir, 'src', 'index.ts'), 'utf8')}\n/** A new result. With a second sentence. */\nexport type FreshResult = { a: 1 };\n`,
      );
      const before = readFileSync(readme, 'utf8');
      const checked = run(['--check'], { README_TYPES_ROOT: copy! });
      expect(checked.status).toBe(1);
      expect(checked.stderr).toContain("READMEs whose Types section differs from the source's exported types: packages/composite/README.md");
      expect(readFileSync(readme, 'utf8')).toBe(before);

      const written = run([], { README_TYPES_ROOT: copy! });
      expect(written.status).toBe(0);
      const after = readFileSync(readme, 'utf8');
      expect(after).toContain('| `FreshResult` | A new result. With a second sentence. |');
      // Only the section changed: the rows around the new one are kept, and the text before the section is untouched.
      expect(after.split('\n').length).toBe(before.split('\n').length + 1);
      expect(after.slice(0, before.indexOf('<!-- exported-types'))).toBe(before.slice(0, before.indexOf('<!-- exported-types')));
      expect(run(['--check'], { README_TYPES_ROOT: copy! }).status).toBe(0);
    });

    it('names a type whose doc comment changed, so the table follows the source', () => {
      const { dir } = copyComposite();
      const file = join(dir, 'src', 'window-types.ts');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('/** A miner');
      writeFileSync(file, text.replace('/** A miner', '/** Renamed: a miner'));
      const checked = run(['--check'], { README_TYPES_ROOT: copy! });
      expect(checked.status).toBe(1);
      expect(checked.stderr).toContain('packages/composite/README.md');
    });

    it('names an exported value the README never mentions, in both modes', () => {
      const { dir } = copyComposite();
      writeFileSync(join(dir, 'src', 'index.ts'), `${readFileSync(join(dir, 'src', 'index.ts'), 'utf8')}\nexport const forgottenHelper = 1;\n`);
      for (const args of [['--check'], []]) {
        const result = run(args, { README_TYPES_ROOT: copy! });
        expect(result.status).toBe(1);
        expect(result.stderr).toContain('exported values no README names: forgottenHelper (packages/composite/README.md)');
      }
    });
  });
});
