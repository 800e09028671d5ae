import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { runMinerCheck } from '../program.js';
import { example, jsonOf, requireBuiltCli, runCli, scratchFile } from './cli-support.js';

/**
 * Hostile input files (docs/spec.md section 0): a file is read as the validator's ingest reads a body, so
 * what miner-check scores is what the validator would accept, and anything else is a coded error naming
 * the flag (exit 2), never a text the file does not hold, a number the validator would store as a string,
 * or an endless read.
 */
async function check(
  args: string[],
): Promise<{ code: number; json: { error?: { code: string; message: string; path: string | null } } & Record<string, unknown> }> {
  let out = '';
  const code = await runMinerCheck([...args, '--json'], { stdout: (t) => (out += t), stderr: () => undefined, stdin: () => '' });
  return { code, json: JSON.parse(out.trim()) as never };
}

const task = example('workflow', 'task.json');
const plan = example('workflow', 'plan.json');
const run = JSON.parse(readFileSync(example('workflow', 'run.json'), 'utf8')) as Record<string, unknown>;
const workflow = (runFile: string) => check(['workflow', '--task', task, '--plan', plan, '--run', runFile]);

describe('hostile input files (docs/spec.md 0)', () => {
  it('a file that is not valid UTF-8 is MINER_CHECK_MALFORMED_JSON, not scored with U+FFFD in place of its bytes', async () => {
    const text = JSON.stringify({ ...run, note: 'NOTE' });
    const at = text.indexOf('NOTE');
    const valid = scratchFile('valid.json', text);
    expect((await workflow(valid)).code).toBe(0);
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at + 4))]);
    const invalid = scratchFile('invalid-utf8.json', bytes as unknown as string);
    const refused = await workflow(invalid);
    expect(refused.code).toBe(2);
    expect(refused.json.error).toEqual(expect.objectContaining({ code: 'MINER_CHECK_MALFORMED_JSON', path: '--run' }));
    expect(refused.json.error?.message).toContain('UTF-8');
  });

  it('a file that starts with a byte-order mark is read without it, as the validator reads such a body; a second mark is malformed', async () => {
    const text = JSON.stringify(run);
    const plain = await workflow(scratchFile('plain.json', text));
    const marked = await workflow(scratchFile('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) as unknown as string));
    expect([marked.code, marked.json.error]).toEqual([0, undefined]);
    expect(marked.json).toEqual(plain.json);
    const twice = await workflow(scratchFile('bom2.json', `\ufeff\ufeff${text}`));
    expect([twice.code, twice.json.error?.code]).toEqual([2, 'MINER_CHECK_MALFORMED_JSON']);
  });

  it('a number the validator would store as a string (an integer beyond 2^53) is MINER_CHECK_INVALID_INPUT naming its path', async () => {
    const refused = await workflow(scratchFile('big.json', JSON.stringify({ ...run, actual_tao: 1e21 })));
    expect(refused.code).toBe(2);
    expect(refused.json.error).toEqual(expect.objectContaining({ code: 'MINER_CHECK_INVALID_INPUT', path: '--run.actual_tao' }));
    // The path and the number are said once, after the cause (the shared sentence names them too).
    expect(refused.json.error?.message).toBe(
      '[MINER_CHECK_INVALID_INPUT] the validator refuses it (UNSAFE_NUMBER): a number beyond 2^53 would be stored as a decimal ' +
        'string (canonical JSON), not as the number sent at --run.actual_tao (got 1e+21)',
    );
    expect((await workflow(scratchFile('edge.json', JSON.stringify({ ...run, note: 2 ** 53 })))).code).toBe(0);
  });

  it('a task id longer than a window id may be (1024) is refused as the validator refuses it (COMPOSITE_INVALID_WINDOW_ENTRY at --task.task_id)', async () => {
    const taskJson = JSON.parse(readFileSync(task, 'utf8')) as Record<string, unknown>;
    const withTaskId = (length: number) =>
      check([
        'workflow',
        '--task',
        scratchFile(`t${length}.json`, JSON.stringify({ ...taskJson, task_id: 't'.repeat(length) })),
        '--plan',
        plan,
        '--run',
        example('workflow', 'run.json'),
      ]);
    expect((await withTaskId(1024)).code).toBe(0);
    const refused = await withTaskId(1025);
    expect(refused.code).toBe(2);
    expect(refused.json.error).toEqual(expect.objectContaining({ code: 'COMPOSITE_INVALID_WINDOW_ENTRY', path: '--task.task_id' }));
  });

  // The built CLI in a subprocess (killed after 30 s): if this regresses, an endless read cannot hang the test run.
  it.skipIf(process.platform === 'win32')(
    'a file that never ends (/dev/zero) is refused once it passes --max-bytes, not read forever',
    () => {
      requireBuiltCli();
      const refused = runCli(['workflow', '--task', task, '--plan', plan, '--run', '/dev/zero', '--max-bytes', '4096', '--json']);
      expect(refused.code).toBe(2);
      const error = (jsonOf(refused) as { error: { code: string; message: string; path: string } }).error;
      expect(error).toEqual(expect.objectContaining({ code: 'CORE_INPUT_TOO_LARGE', path: '--run' }));
      expect(error.message).toContain('4096');
    },
    60_000,
  );

  it('an empty file, or one of white space only, is said to be empty, naming the file and the flag (not "Unexpected end of JSON input")', async () => {
    const empty = scratchFile('empty.json', '');
    const refused = await workflow(empty);
    expect([refused.code, refused.json.error?.code, refused.json.error?.path]).toEqual([2, 'MINER_CHECK_MALFORMED_JSON', '--run']);
    expect(refused.json.error?.message).toContain(`${empty}, given to --run, is empty: there is no JSON in it`);
    const blank = await workflow(scratchFile('blank.json', ' \n\t\r\n'));
    expect(blank.json.error?.message).toContain('given to --run, holds only white space');
    let out = '';
    const code = await runMinerCheck(['term', '--results', '-', '--total-tasks', '3', '--json'], {
      stdout: (t) => (out += t),
      stderr: () => undefined,
      stdin: () => '',
    });
    expect(code).toBe(2);
    expect(out).toContain('standard input, given to --results, is empty');
  });
});
