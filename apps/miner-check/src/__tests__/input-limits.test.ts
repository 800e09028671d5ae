import { describe, expect, it } from 'vitest';

import { runMinerCheck } from '../program.js';
import { example, scratchFile } from './cli-support.js';

/** Runs the program in process, capturing what it prints. */
async function check(args: string[]): Promise<{
  code: number;
  json: { error?: { code: string; message: string; path: string | null; value?: unknown; hint?: string } } & Record<string, unknown>;
}> {
  let out = '';
  const code = await runMinerCheck([...args, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, stdin: () => '' });
  return { code, json: JSON.parse(out.trim()) as never };
}

const termResults = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ task_id: `t${i}`, tests_passed: 1, tests_total: 1, ...extra })));

describe('configured input size limits (--max-*, the validator defaults; docs/spec.md G.6)', () => {
  it('input limits: by default a file is held to the validator defaults (1 MiB, depth 64)', async () => {
    const big = scratchFile('big.json', JSON.stringify([{ task_id: 't', tests_passed: 1, tests_total: 1, note: 'x'.repeat(1024 * 1024) }]));
    const refused = await check(['term', '--results', big, '--total-tasks', '1']);
    expect(refused.code).toBe(2);
    expect(refused.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--results' }));
    expect(refused.json.error?.message).toContain('1048576');
    expect((await check(['term', '--results', example('term', 'results.json'), '--total-tasks', '10'])).code).toBe(0);
  });

  it('input limits: --max-list-length, --max-string-length, --max-object-keys and --max-depth refuse a larger input with the field path', async () => {
    const three = scratchFile('three.json', termResults(3));
    expect((await check(['term', '--results', three, '--total-tasks', '3', '--max-list-length', '3'])).code).toBe(0);
    const list = await check(['term', '--results', three, '--total-tasks', '3', '--max-list-length', '2']);
    expect(list.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--results' }));

    const noted = scratchFile('noted.json', termResults(1, { note: 'x'.repeat(13) }));
    const string = await check(['term', '--max-string-length', '12', '--results', noted, '--total-tasks', '1']);
    expect(string.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--results[0].note' }));

    const keys = await check(['term', '--results', noted, '--total-tasks', '1', '--max-object-keys', '3']);
    expect(keys.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--results[0]' }));

    const deep = scratchFile('deep.json', termResults(1, { x: { y: {} } }));
    // At depth 4 the shape passes and the term schema (strict) is what refuses the unknown field.
    expect((await check(['term', '--results', deep, '--total-tasks', '1', '--max-depth', '4'])).json.error?.code).toBe('MINER_CHECK_INVALID_INPUT');
    const tooDeep = await check(['term', '--results', deep, '--total-tasks', '1', '--max-depth', '3']);
    expect(tooDeep.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_DEEP', path: '--results[0].x.y' }));

    const bytes = await check(['term', '--results', three, '--total-tasks', '3', '--max-bytes', '20']);
    expect(bytes.json.error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--results' }));
  });

  it('input limits: a limit flag that is not an integer from 1 to the validator maximum is refused naming the flag and value', async () => {
    for (const [flag, value] of [
      ['--max-depth', '65'],
      ['--max-list-length', '0'],
      ['--max-string-length', '2.5'],
      ['--max-object-keys', '10001'],
      ['--max-bytes', '67108865'],
    ] as const) {
      const run = await check(['term', '--results', example('term', 'results.json'), '--total-tasks', '10', flag, value]);
      expect(run.code).toBe(2);
      expect(run.json.error).toEqual(expect.objectContaining({ code: 'MINER_CHECK_INVALID_ARGUMENT', path: flag, value: JSON.stringify(value) }));
    }
  });

  it('input limits: a refusal for going over one names the flag that sets it and its value (hint), text and --json', async () => {
    const five = scratchFile('five.json', termResults(5));
    const list = await check(['--max-list-length', '3', 'term', '--results', five, '--total-tasks', '5']);
    expect(list.json.error).toEqual(
      expect.objectContaining({
        code: 'CORE_INPUT_TOO_LARGE',
        path: '--results',
        hint: 'the limit is --max-list-length 3: raise it (at most 100000) to allow more',
      }),
    );
    const deep = scratchFile('deep.json', termResults(1, { x: { y: {} } }));
    const tooDeep = await check(['term', '--results', deep, '--total-tasks', '1', '--max-depth', '3']);
    expect(tooDeep.json.error?.hint).toBe('the limit is --max-depth 3: raise it (at most 64) to allow more');
    const keys = await check(['term', '--results', deep, '--total-tasks', '1', '--max-object-keys', '3']);
    expect(keys.json.error?.hint).toBe('the limit is --max-object-keys 3: raise it (at most 10000) to allow more');
    const long = await check(['term', '--results', deep, '--total-tasks', '1', '--max-string-length', '3']);
    expect(long.json.error?.hint).toBe('the limit is --max-string-length 3: raise it (at most 1048576) to allow more');
    const bytes = await check(['--max-bytes', '20', 'term', '--results', five, '--total-tasks', '5']);
    expect(bytes.json.error).toEqual(
      expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', hint: 'the limit is --max-bytes 20: raise it (at most 67108864) to allow more' }),
    );
    // At the validator's largest it cannot be raised, and says so.
    const wide = scratchFile('wide.json', termResults(100_001));
    expect((await check(['term', '--results', wide, '--total-tasks', '1', '--max-bytes', '67108864'])).json.error?.hint).toBe(
      'the limit is --max-list-length 100000, the most it can be',
    );
    let err = '';
    await runMinerCheck(['--max-list-length', '3', 'term', '--results', five, '--total-tasks', '5'], {
      stdout: () => undefined,
      stderr: (t) => (err += t),
      stdin: () => '',
    });
    expect(err.split('\n')).toContain('  the limit is --max-list-length 3: raise it (at most 100000) to allow more');
  });
});
