import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildBundle, computeEpoch, signedBundleText } from '@subnet/bundle';
import type { ComputeEpochInput } from '@subnet/bundle';
import { canonicalJson, isSubnetError } from '@subnet/core';
import { hexToU8a } from '@polkadot/util';
import { signatureVerify } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';

import { ComputationAbandoned, createEpochComputer, RecordsUnreadable } from '../epoch-compute.js';
import type { ComputedEpoch, EpochSource } from '../epoch-compute.js';
import { inputsFromRecords } from '../epoch-runner.js';
import type { RecordKind } from '../storage.js';
import { captureLog, expectBuiltCli, silent, useKeys, useTempDir } from './helpers.js';
import type { scoring } from './helpers.js';
import { largeEpochInput, storedRecordsOf } from './large-epoch.js';

const k = useKeys();
const temp = useTempDir();

const SUBMISSION = { status: 'dry_run' as const, block: null, extrinsic_hash: null, call: null, error: null };
const CLAIM_HEAD = '1234';

/**
 * What the close writes from a computation, by the library on this thread (the code before docs/spec.md G.47): the
 * u16 vector it sends, the carry it stores, the pending input's text of a `submitting` claim, and the bundle's bytes
 * and digest (unsigned: sr25519 signs with a random nonce, so two signatures of one digest differ; signing is below).
 */
function expectedTexts(source: EpochSource) {
  const input = readHere(source);
  const result = computeEpoch(input);
  const signed = signedBundleText(buildBundle({ ...input, netuid: 7, result, submission: SUBMISSION }), undefined);
  return {
    u16: JSON.stringify(result.u16),
    carry: JSON.stringify({ window_state: result.window_state, decay_states: result.decay_states, reputations: result.reputations }),
    pending: canonicalJson({ pending: { ...input, netuid: 7 }, pending_claim_head: CLAIM_HEAD }),
    text: signed.text,
    digest: signed.digest,
  };
}

/** The same, from a computed epoch (its worker thread builds the texts). */
async function textsOf(computed: ComputedEpoch) {
  const signed = await computed.signedBundle(7, SUBMISSION, undefined);
  return {
    u16: JSON.stringify(computed.u16),
    carry: computed.carry,
    pending: await computed.pendingText(7, CLAIM_HEAD),
    text: signed.text,
    digest: signed.digest,
  };
}

/** A generated epoch as the close gives it to the computer: its stored records (bodies as text), no carry, the rest. */
function sourceOf(input: ReturnType<typeof largeEpochInput>['input']): EpochSource {
  const { inputs: _parsed, ...rest } = input;
  const records = storedRecordsOf(input, input.epoch).map((r, i) => ({ kind: r.kind as RecordKind, recordId: r.recordId, seq: i + 1, body: r.body }));
  return { records, carry: null, input: rest };
}

/** The input the code before G.47 computed from: the records parsed on this thread by `inputsFromRecords`. */
function readHere(source: EpochSource): ComputeEpochInput {
  return { ...source.input, inputs: inputsFromRecords(source.records, source.carry) };
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
      const first = sourceOf(largeEpochInput({ ...options, self: k.validator.address }).input);
      const there = await computer.compute(first);
      expect(there.computedOn).toBe('worker');
      const expected = expectedTexts(first);
      expect(await textsOf(there)).toEqual(expected);
      there.release();
      // The next epoch from the carried state (rolling window, decay states, reputations), as the runner reads it back.
      const next = { ...first, carry: expected.carry, input: { ...first.input, epoch: first.input.epoch + 1 } };
      const thereNext = await computer.compute(next);
      expect(await textsOf(thereNext)).toEqual(expectedTexts(next));
      thereNext.release();
      // winner_takes_all reads each miner's submission order (docs/spec.md G.4).
      const config = first.input.config as typeof scoring;
      const wta = {
        ...first,
        input: { ...first.input, config: { ...config, pipeline: { ...config.pipeline, normalisation: { strategy: 'winner_takes_all' } } } },
      };
      const thereWta = await computer.compute(wta);
      expect(await textsOf(thereWta)).toEqual(expectedTexts(wta));
      thereWta.release();
    }, 300_000);
  }

  it('an input computeEpoch refuses fails with the same code and message as on the event loop', async () => {
    const computer = createEpochComputer({ logger: silent });
    const source = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
    const input = { ...source, input: { ...source.input, metagraph: [{ hotkey: 'not-a-hotkey', uid: 0 }] } };
    let expected: unknown;
    try {
      computeEpoch(readHere(input));
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

describe("the signed bundle: signed on this thread over the digest the worker gives, in the library's framing", () => {
  it('the same text as signedBundleText with the validator key but for the signature, which verifies over the digest', async () => {
    const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
    const computed = await createEpochComputer({ logger: silent }).compute(input);
    const signed = await computed.signedBundle(7, SUBMISSION, k.validator);
    computed.release();
    const library = signedBundleText(
      buildBundle({ ...readHere(input), netuid: 7, result: computeEpoch(readHere(input)), submission: SUBMISSION }),
      k.validator,
    );
    const SIGNATURE = /"signature":"(0x[0-9a-f]{128})"}$/;
    expect(signed.digest).toBe(library.digest);
    expect(signed.text.replace(SIGNATURE, '')).toBe(library.text.replace(SIGNATURE, ''));
    const signature = SIGNATURE.exec(signed.text)?.[1] ?? '';
    expect(signatureVerify(hexToU8a(signed.digest), signature, k.validator.address).isValid).toBe(true);
  });

  it("a key that is not the bundle's validator hotkey is refused as signedBundleText refuses it (same code and message)", async () => {
    const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
    const computed = await createEpochComputer({ logger: silent }).compute(input);
    const thrown = await computed.signedBundle(7, SUBMISSION, k.peer).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );
    computed.release();
    let expected: (Error & { code?: string }) | undefined;
    try {
      signedBundleText(buildBundle({ ...readHere(input), netuid: 7, result: computeEpoch(readHere(input)), submission: SUBMISSION }), k.peer);
    } catch (error) {
      expected = error as Error & { code?: string };
    }
    expect(expected?.code).toBe('BUNDLE_SIGNER_MISMATCH');
    expect({ code: thrown?.code, message: thrown?.message }).toEqual({ code: expected?.code, message: expected?.message });
  });
});

describe("reconciliation's bundle (claimBundle): built in a worker thread from the claim's text, the library's bytes (docs/spec.md G.47)", () => {
  /** A claim as the close stores it, and the bundle the code before built from it on the event loop. */
  const claimOf = (source: EpochSource) => {
    const input = readHere(source);
    const text = canonicalJson({ pending: { ...input, netuid: 7 }, pending_claim_head: CLAIM_HEAD });
    const library = (signer: Parameters<typeof signedBundleText>[1]) =>
      signedBundleText(buildBundle({ ...(JSON.parse(text) as { pending: ComputeEpochInput & { netuid: number } }).pending, submission: SUBMISSION }), signer);
    return { text, library };
  };

  it('a dry run (no signer): the same text and digest; with the validator key the same but for the signature, which verifies', async () => {
    const computer = createEpochComputer({ logger: silent });
    const claim = claimOf(sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input));
    const unsigned = claim.library(undefined);
    expect(await computer.claimBundle(5, claim.text, SUBMISSION, undefined)).toEqual({ text: unsigned.text, digest: unsigned.digest });
    const signed = await computer.claimBundle(5, claim.text, SUBMISSION, k.validator);
    const library = claim.library(k.validator);
    const SIGNATURE = /"signature":"(0x[0-9a-f]{128})"}$/;
    expect(signed.digest).toBe(library.digest);
    expect(signed.text.replace(SIGNATURE, '')).toBe(library.text.replace(SIGNATURE, ''));
    expect(signatureVerify(hexToU8a(signed.digest), SIGNATURE.exec(signed.text)?.[1] ?? '', k.validator.address).isValid).toBe(true);
  });

  it('a worker that cannot start: built on the event loop, the same bytes, one warning naming the cause', async () => {
    const log = captureLog('warn');
    const computer = createEpochComputer({ logger: log.logger, workerUrl: pathToFileURL(join(temp.dir, 'missing-worker.mjs')) });
    const claim = claimOf(sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input));
    const unsigned = claim.library(undefined);
    expect(await computer.claimBundle(5, claim.text, SUBMISSION, undefined)).toEqual({ text: unsigned.text, digest: unsigned.digest });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.msg).toMatch(/^epoch 5: reconciliation's bundle in a worker thread failed \(.+\): done on the event loop instead/);
  });

  it('a claim whose input buildBundle refuses fails with the same code and message as on the event loop', async () => {
    const computer = createEpochComputer({ logger: silent });
    const source = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
    const claim = claimOf({ ...source, input: { ...source.input, metagraph: [{ hotkey: 'not-a-hotkey', uid: 0 }] } });
    let expected: (Error & { code?: string }) | undefined;
    try {
      claim.library(undefined);
    } catch (error) {
      expected = error as Error & { code?: string };
    }
    const thrown = await computer.claimBundle(5, claim.text, SUBMISSION, undefined).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(isSubnetError(expected)).toBe(true);
    expect({ code: thrown?.code, message: thrown?.message }).toEqual({ code: expected?.code, message: expected?.message });
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
      const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
      const computed = await computer.compute(input);
      expect(computed.computedOn).toBe('event_loop');
      expect(await textsOf(computed)).toEqual(expectedTexts(input));
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]?.cause).toMatch(c.cause);
      expect(log.lines[0]?.msg).toMatch(/^epoch 5: the computation in a worker thread failed \(.+\): done on the event loop instead/);
    });
  }
});

it('a worker thread that exits after computing: the bundle and the claim are built on the event loop from a computation made there, the same bytes, one warning', async () => {
  // The real computation, then an exit at the first request.
  const bundleDist = pathToFileURL(fileURLToPath(new URL('../../../../packages/bundle/dist/index.js', import.meta.url))).href;
  const path = join(temp.dir, 'exits-after-computing.mjs');
  writeFileSync(
    path,
    [
      "import { parentPort, workerData } from 'node:worker_threads';",
      `import { computeEpoch } from ${JSON.stringify(bundleDist)};`,
      `import { inputsFromRecords } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../epoch-inputs.mjs', import.meta.url))).href)};`,
      'const r = computeEpoch({ ...workerData.input, inputs: inputsFromRecords(workerData.records, workerData.carry) });',
      'parentPort.postMessage({ ok: true, u16: r.u16, carry: JSON.stringify({ window_state: r.window_state, decay_states: r.decay_states, reputations: r.reputations }) });',
      'parentPort.once("message", () => process.exit(7));',
    ].join('\n'),
  );
  const log = captureLog('warn');
  const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
  const computed = await createEpochComputer({ logger: log.logger, workerUrl: pathToFileURL(path) }).compute(input);
  expect(computed.computedOn).toBe('worker');
  expect(await textsOf(computed)).toEqual(expectedTexts(input));
  expect(log.lines.map((l) => l.msg)).toEqual([
    expect.stringMatching(
      /^epoch 5: the bundle in a worker thread failed \(the worker thread exited with code 7 before answering\): done on the event loop instead/,
    ),
  ]);
});

it('a text asked for after release() (a failed recomputation keeps the first computation) is built on the event loop, the same bytes, no warning', async () => {
  const log = captureLog('warn');
  const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
  const computed = await createEpochComputer({ logger: log.logger }).compute(input);
  computed.release();
  expect(await textsOf(computed)).toEqual(expectedTexts(input));
  expect(log.lines).toEqual([]);
});

it('a stored record that is not JSON: the computation rejects with RecordsUnreadable (the close rethrows its cause and records nothing)', async () => {
  const source = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
  const damaged = { ...source, records: [...source.records, { kind: 'bounty' as RecordKind, recordId: 'b-damaged', seq: 99_999, body: '{"record_id":' }] };
  let expected: Error | undefined;
  try {
    JSON.parse('{"record_id":');
  } catch (error) {
    expected = error as Error;
  }
  const thrown = await createEpochComputer({ logger: silent })
    .compute(damaged)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(thrown).toBeInstanceOf(RecordsUnreadable);
  expect((thrown as RecordsUnreadable).original).toMatchObject({ name: 'SyntaxError', message: expected?.message });
});

it('abandon() ends a computation in progress: it rejects with ComputationAbandoned, nothing is computed on the event loop', async () => {
  const log = captureLog('warn');
  const computer = createEpochComputer({ logger: log.logger });
  const input = sourceOf(largeEpochInput({ ...EPOCHS[1], self: k.validator.address }).input);
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
    const input = sourceOf(largeEpochInput({ ...EPOCHS[0], self: k.validator.address }).input);
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
      `const signed = await computed.signedBundle(7, ${JSON.stringify(SUBMISSION)}, undefined);`,
      `const pending = await computed.pendingText(7, ${JSON.stringify(CLAIM_HEAD)});`,
      'computed.release();',
      'const texts = { u16: JSON.stringify(computed.u16), carry: computed.carry, pending, text: signed.text, digest: signed.digest };',
      'process.stdout.write(JSON.stringify({ computedOn: computed.computedOn, warnings, texts }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { computedOn: string; warnings: string[]; texts: unknown };
    expect({ computedOn: out.computedOn, warnings: out.warnings }).toEqual({ computedOn: 'worker', warnings: [] });
    expect(out.texts).toEqual(expectedTexts(input));
  });
});
