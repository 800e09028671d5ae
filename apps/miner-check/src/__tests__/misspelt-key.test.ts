/**
 * A required key reported missing where the file has it misspelt: the error names the key the file has, one line
 * under the error (and `hint` in --json), for every command that reads miner documents.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { memberSource } from '../commands/sssa.js';
import { runMinerCheck } from '../program.js';
import { example, scratchFile } from './cli-support.js';

async function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runMinerCheck(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => '' });
  return { code, stdout, stderr };
}

/** An example file with `from` replaced by `to` the first time it occurs (as a key), written to a scratch file. */
function misspelt(file: string[], from: string, to: string): string {
  const text = readFileSync(example(...file), 'utf8');
  expect(text).toContain(`"${from}"`);
  return scratchFile(file.at(-1)!, text.replace(`"${from}"`, `"${to}"`));
}

const workflow = (task: string, plan: string, runFile: string): string[] => ['workflow', '--task', task, '--plan', plan, '--run', runFile];

describe('miner-check names the misspelt key of a required field', () => {
  it('workflow: the execution record and the task, as text and as --json', async () => {
    const text = await run(
      workflow(
        example('workflow', 'task.json'),
        example('workflow', 'plan.json'),
        misspelt(['workflow', 'run.json'], 'output_quality_score', 'output_quality_scor'),
      ),
    );
    expect(text.code).toBe(2);
    expect(text.stderr.split('\n')).toEqual([
      expect.stringMatching(/^miner-check: \[COMPOSITE_INVALID_RECORD\] invalid record: .* at record\.output_quality_score \(got undefined\)$/),
      '  record has the key "output_quality_scor" (did you mean "output_quality_score"?)',
      '',
    ]);
    // The code and the path once each: the first line leads with the cause, nothing repeats it.
    expect(text.stderr.split('COMPOSITE_INVALID_RECORD')).toHaveLength(2);
    expect(text.stderr.split('at record.output_quality_score')).toHaveLength(2);
    const json = await run([
      ...workflow(misspelt(['workflow', 'task.json'], 'max_budget_tao', 'max_budget_ta0'), example('workflow', 'plan.json'), example('workflow', 'run.json')),
      '--json',
    ]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: {
        code: 'COMPOSITE_INVALID_TASK',
        path: 'task.constraints.max_budget_tao',
        hint: 'task.constraints has the key "max_budget_ta0" (did you mean "max_budget_tao"?)',
      },
    });
  });

  it("sssa: this miner's document, a peer's (named as the group member) and a draw candidate", async () => {
    const self = await run(['sssa', '--sssa', misspelt(['sssa', 'sssa.json'], 'severity', 'severty')]);
    expect(self.code).toBe(2);
    expect(self.stderr).toContain('\n  sssa.findings[0] has the key "severty" (did you mean "severity"?)\n');
    const peers = misspelt(['sssa', 'peers.json'], 'severity', 'severty');
    const peer = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', peers]);
    expect(peer.stderr).toContain(
      `\n  members[1].sssa.findings[0] has the key "severty" (did you mean "severity"?)\n  members[1] is --peers[0] (${peers}), element 0\n`,
    );
    const draw = await run([
      'sssa',
      '--sssa',
      example('sssa', 'sssa.json'),
      '--block-hash',
      `0x${'ab'.repeat(32)}`,
      '--task-id',
      't',
      '--candidates',
      misspelt(['sssa', 'candidates.json'], 'uid', 'uidd'),
      '--json',
    ]);
    expect(JSON.parse(draw.stdout)).toMatchObject({ error: { path: 'candidates[0].uid', hint: 'candidates[0] has the key "uidd" (did you mean "uid"?)' } });
  });

  it('term and weights', async () => {
    const term = await run(['term', '--results', misspelt(['term', 'results.json'], 'tests_passed', 'test_passed'), '--total-tasks', '10']);
    expect(term.stderr).toContain('\n  results[0] has the key "test_passed" (did you mean "tests_passed"?)\n');
    const weights = await run(['weights', '--scores', misspelt(['weights', 'scores.json'], 'score', 'scroe'), '--json']);
    expect(JSON.parse(weights.stdout)).toMatchObject({ error: { path: 'scores[0].score', hint: 'scores[0] has the key "scroe" (did you mean "score"?)' } });
  });

  it('no hint when the key is there with a wrong value, or when no key of the object is close', async () => {
    const text = readFileSync(example('workflow', 'run.json'), 'utf8');
    const wrongValue = scratchFile('run.json', text.replace(/"output_quality_score":\s*[\d.]+/, '"output_quality_score": "high"'));
    const valued = await run([...workflow(example('workflow', 'task.json'), example('workflow', 'plan.json'), wrongValue), '--json']);
    expect(JSON.parse(valued.stdout)).toMatchObject({ error: { path: 'record.output_quality_score' } });
    expect(JSON.parse(valued.stdout).error).not.toHaveProperty('hint');
    const far = await run(
      workflow(example('workflow', 'task.json'), example('workflow', 'plan.json'), misspelt(['workflow', 'run.json'], 'output_quality_score', 'quality')),
    );
    expect(far.stderr).toContain('at record.output_quality_score (got undefined)');
    expect(far.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe("a group member's error says which file it came from", () => {
  it('names --sssa, a peers file holding one document, and the element of a peers file holding an array', () => {
    const self = { value: {}, option: '--sssa', file: 'mine.json' };
    const input = {
      self,
      peers: [
        { value: [{}, {}, {}], option: '--peers[0]', file: 'group.json' },
        { value: {}, option: '--peers[1]', file: '-' },
        { value: [], option: '--peers[2]' },
        { value: [{}], option: '--peers[3]' },
      ],
      uid: 0,
      role: 'primary' as const,
    };
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => memberSource(input, i))).toEqual([
      '--sssa (mine.json)',
      '--peers[0] (group.json), element 0',
      '--peers[0] (group.json), element 1',
      '--peers[0] (group.json), element 2',
      '--peers[1] (-)',
      '--peers[3], element 0',
      undefined,
    ]);
  });

  it('a duplicate uid in the second peers file: the error names that file and element', async () => {
    const second = scratchFile('second.json', readFileSync(example('sssa', 'peers.json'), 'utf8'));
    const got = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', example('sssa', 'peers.json'), second, '--json']);
    expect(got.code).toBe(2);
    const count = (JSON.parse(readFileSync(example('sssa', 'peers.json'), 'utf8')) as unknown[]).length;
    expect(JSON.parse(got.stdout)).toMatchObject({
      error: { code: 'CONSENSUS_INVALID_GROUP', path: `members[${count + 1}].uid`, source: `members[${count + 1}] is --peers[1] (${second}), element 0` },
    });
  });
});

describe('miner-check names the misspelt key of a member object', () => {
  /** The example peers with the second member's `from` key renamed `to` (a JSON value). */
  function peersWith(change: (members: Record<string, unknown>[]) => void): string {
    const members = JSON.parse(readFileSync(example('sssa', 'peers.json'), 'utf8')) as Record<string, unknown>[];
    change(members);
    return scratchFile('peers.json', JSON.stringify(members));
  }

  it('a misspelt "role" is refused: without it the member would silently count as primary', async () => {
    const peers = peersWith((members) => {
      expect(members[1]?.role).toBe('primary');
      members[1]!.rol = 'auditor';
      delete members[1]!.role;
    });
    const got = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', peers]);
    expect(got.code).toBe(2);
    expect(got.stdout).toBe('');
    expect(got.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^miner-check: \[MINER_CHECK_INVALID_ARGUMENT\] the member object has no "role", so it would count as primary at members\[2\]\.role/,
      ),
      '  members[2] has the key "rol" (did you mean "role"?)',
      `  members[2] is --peers[0] (${peers}), element 1`,
      '',
    ]);
  });

  it("this miner's own member object: a misspelt role would take --role", async () => {
    const self = JSON.parse(readFileSync(example('sssa', 'peers.json'), 'utf8'))[0] as Record<string, unknown>;
    self.Role = self.role;
    delete self.role;
    const file = scratchFile('self.json', JSON.stringify(self));
    const got = await run(['sssa', '--sssa', file, '--role', 'auditor', '--json']);
    expect(got.code).toBe(2);
    expect(JSON.parse(got.stdout)).toMatchObject({
      error: {
        code: 'MINER_CHECK_INVALID_ARGUMENT',
        path: 'members[0].role',
        message: expect.stringContaining('would count as auditor (--role)'),
        hint: 'members[0] has the key "Role" (did you mean "role"?)',
        source: `members[0] is --sssa (${file})`,
      },
    });
  });

  it('a member object without "role" and without a near key takes the default, as documented', async () => {
    const peers = peersWith((members) => {
      delete members[2]!.role;
      members[2]!.note = 'from the executor';
    });
    const got = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', peers, '--json']);
    expect(got.code).toBe(0);
    const given = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', example('sssa', 'peers.json'), '--json']);
    expect(JSON.parse(got.stdout).consensus).toBe(JSON.parse(given.stdout).consensus);
  });

  it('a role given as null is checked by consensus, not replaced by the default', async () => {
    const peers = peersWith((members) => {
      members[1]!.role = null;
    });
    const got = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', peers, '--json']);
    expect(got.code).toBe(2);
    expect(JSON.parse(got.stdout)).toMatchObject({ error: { code: 'CONSENSUS_INVALID_GROUP', path: 'members[2].role', value: 'null' } });
  });

  it('a misspelt uid or hotkey of a member object gets the hint (the path names the member object, not its document)', async () => {
    const peers = peersWith((members) => {
      members[2]!.hotkye = members[2]!.hotkey;
      delete members[2]!.hotkey;
    });
    const got = await run(['sssa', '--sssa', example('sssa', 'sssa.json'), '--peers', peers, '--json']);
    expect(got.code).toBe(2);
    expect(JSON.parse(got.stdout)).toMatchObject({
      error: {
        path: 'members[3].hotkey',
        hint: 'members[3] has the key "hotkye" (did you mean "hotkey"?)',
        source: `members[3] is --peers[0] (${peers}), element 2`,
      },
    });
  });
});
