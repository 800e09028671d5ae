import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildBundle, computeEpoch, signedBundleText } from '@subnet/bundle';
import type { ComputeEpochInput, EpochComputation } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { ComputationAbandoned, createEpochComputer } from '../epoch-compute.js';
import { captureLog, expectBuiltCli, silent, useKeys, useTempDir } from './helpers.js';
import { largeEpochInput } from './large-epoch.js';

const k = useKeys();
const temp = useTempDir();

/**
 * What the runner keeps of a computation: the u16 vector, the carry it stores, and the bundle's bytes and digest (the
 * signature over the digest is left out: sr25519 signs with a random nonce, two signatures of one digest differ).
 */
function runnerView(input: ComputeEpochInput, result: EpochComputation) {
  const submission = { status: 'dry_run' as const, block: null, extrinsic_hash: null, call: null, error: null };
  const signed = signedBundleText(buildBundle({ ...input, netuid: 7, result, submission }), undefined);
  return {
    u16: JSON.stringify(result.u16),
    carry: JSON.stringify({ window_state: result.window_state, decay_states: result.decay_states, reputations: result.reputations }),
    text: signed.text,
    digest: signed.digest,
  };
}

/** Options of the generated epochs: sizes, and a normalisation that reads submission order (winner_takes_all ties). */
const EPOCHS = [
  { name: 'a small epoch (8 miners, 3 validators)', miners: 8, validators: 3, workflowRunsPerMiner: 2, sssaTasks: 2, findingsPerSssa: 2 },
  { name: 'a large epoch (256 miners, 16 validators, 15,000 records)', miners: 256, validators: 16, workflowRunsPerMiner: 4, sssaTasks: 8, findingsPerSssa: 3 },
] as const;

describe('an epoch computed in the worker thread is the one computed on the event loop, bit for bit', () => {
  for (const options of EPOCHS) {
    it(`${options.name}: same u16 vector, same carry, same bundle bytes and digest; then the next epoch from that carry`, async () => {
      const computer = createEpochComputer({ logger: silent });
      const first = largeEpochInput({ ...options, self: k.validator.address }).input;
      const here = computeEpoch(first);
      const there = await computer.compute(first);
      expect(there.computedOn).toBe('worker');
      const expected = runnerView(first, here);
      expect(runnerView(first, there.result)).toEqual(expected);
      // The next epoch from the carried state (rolling window, decay states, reputations), as the runner reads it back.
      const carry = JSON.parse(expected.carry) as Record<string, unknown>;
      const next = { ...first, epoch: first.epoch + 1, inputs: { ...first.inputs, ...carry } };
      const hereNext = computeEpoch(next);
      const thereNext = await computer.compute(next);
      expect(runnerView(next, thereNext.result)).toEqual(runnerView(next, hereNext));
      // winner_takes_all reads each miner's submission order (docs/spec.md G.4).
      const wta = { ...first, config: { ...first.config, pipeline: { ...first.config.pipeline, normalisation: { strategy: 'winner_takes_all' } } } };
      expect(runnerView(wta, (await computer.compute(wta)).result)).toEqual(runnerView(wta, computeEpoch(wta)));
    }, 300_000);
  }

  it('an input computeEpoch refuses fails with the same code and message as on the event loop', async () => {
    const computer = createEpochComputer({ logger: silent });
    const input = { ...largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input, metagraph: [{ hotkey: 'not-a-hotkey', uid: 0 }] };
    let expected: unknown;
    try {
      computeEpoch(input);
    } catch (error) {
      expected = error;
    }
    const thrown = await computer.compute(input).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isSubnetError(expected)).toBe(true);
    expect(isSubnetError(thrown)).toBe(true);
    expect({ code: (thrown as Error & { code: string }).code, message: (thrown as Error).message }).toEqual({
      code: (expected as Error & { code: string }).code,
      message: (expected as Error).message,
    });
  });
});

describe('a worker thread that fails: the epoch is computed on the event loop, with a warning naming the cause', () => {
  const cases = [
    { name: 'the worker script is missing', script: null, cause: /did not start|failed.*(Cannot find|ERR_MODULE_NOT_FOUND)/ },
    { name: 'the worker throws before answering', script: "throw new Error('worker broke on load');", cause: /worker broke on load/ },
    { name: 'the worker exits before answering', script: 'process.exit(3);', cause: /exited with code 3 before answering/ },
  ] as const;
  for (const c of cases) {
    it(c.name, async () => {
      const path = join(temp.dir, `worker-${cases.indexOf(c)}.mjs`);
      if (c.script !== null) writeFileSync(path, c.script);
      const log = captureLog('warn');
      const computer = createEpochComputer({ logger: log.logger, workerUrl: pathToFileURL(path) });
      const input = largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input;
      const computed = await computer.compute(input);
      expect(computed.computedOn).toBe('event_loop');
      expect(runnerView(input, computed.result)).toEqual(runnerView(input, computeEpoch(input)));
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]?.cause).toMatch(c.cause);
      expect(log.lines[0]?.msg).toMatch(/computing epoch 5 in a worker thread failed \(.+\): computing it on the event loop instead/);
    });
  }
});

it('abandon() ends a computation in progress: it rejects with ComputationAbandoned, nothing is computed on the event loop', async () => {
  const log = captureLog('warn');
  const computer = createEpochComputer({ logger: log.logger });
  const input = largeEpochInput({ ...EPOCHS[1], self: k.validator.address }).input;
  const running = computer.compute(input).then(
    () => 'computed',
    (error: unknown) => error,
  );
  // Abandoned once its worker thread runs (the next macrotask after compute() started it).
  await new Promise((resolve) => setImmediate(resolve));
  await computer.abandon();
  expect(await running).toBeInstanceOf(ComputationAbandoned);
  expect(log.lines).toEqual([]);
});

describe('the built app (dist/)', () => {
  it('computes in its worker thread (dist/epoch-worker.mjs, copied by the build), with the result of computeEpoch', () => {
    expectBuiltCli();
    const input = largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input;
    const file = join(temp.dir, 'built-input.json');
    writeFileSync(file, JSON.stringify(input));
    const index = pathToFileURL(fileURLToPath(new URL('../../dist/index.js', import.meta.url))).href;
    // A plain `node` (no test runner, no source condition), as `subnet-validator run` and `npm start` run the app.
    const script = [
      `const { createEpochComputer } = await import(${JSON.stringify(index)});`,
      "const { readFileSync } = await import('node:fs');",
      'const warnings = [];',
      'const logger = { warn: (fields, msg) => warnings.push(msg), debug: () => undefined };',
      `const computed = await createEpochComputer({ logger }).compute(JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8')));`,
      'process.stdout.write(JSON.stringify({ computedOn: computed.computedOn, warnings, result: JSON.stringify(computed.result) }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { computedOn: string; warnings: string[]; result: string };
    expect({ computedOn: out.computedOn, warnings: out.warnings }).toEqual({ computedOn: 'worker', warnings: [] });
    expect(out.result).toBe(JSON.stringify(computeEpoch(input)));
  });
});
