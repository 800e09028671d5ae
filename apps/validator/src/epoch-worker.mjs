// @ts-check
// The worker thread of an epoch close (epoch-compute.ts, docs/spec.md G.47). Started with the epoch's stored records
// (their texts, parsed here by epoch-inputs.mjs), the previous carry and the rest of the computation's input, it
// runs `computeEpoch` from `@subnet/bundle` (its built JavaScript, resolved like any dependency) off the validator's
// event loop and keeps the input and the result for the close, which then asks it for the texts it stores: the
// input's canonical JSON for a `submitting` claim, and the bundle's canonical JSON and digest once the submission is
// known. Only small values and texts cross back: the u16 vector, the carry (`JSON.stringify`, as the runner writes
// it), and those texts, each the same bytes the runner would write from the result on its own thread.
//
// Messages to the close: `{ ok: true, u16, carry }` once computed; then one answer per request, `{ ok: true, text }`
// or `{ ok: true, text, digest }`; `{ ok: false, error }` when a step threw (its name, code, message and context, so
// the close fails with the same code and message as on its own thread). `{ kind: 'end' }` ends the thread.
//
// Started with a `submitting` claim's text instead (`workerData.claim`, with the submission and the signer's address),
// it builds that epoch's bundle for reconciliation, posts `{ ok: true, text, digest }` (or `{ ok: false, error }`) and
// ends.
//
// Plain JavaScript, not TypeScript: the same file runs from src/ (tests) and from dist/ (the build copies it there),
// and Node 20 runs no TypeScript in a worker thread.
import { parentPort, workerData } from 'node:worker_threads';

import { buildBundle, computeEpoch, signedBundleText } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';

import { carryText, claimBundleInput, claimText, inputsFromRecords } from './epoch-inputs.mjs';

const port = parentPort;
if (port === null) throw new Error('epoch-worker.mjs runs as a worker thread (node:worker_threads), not on its own');

/** The 64 zero bytes signed in the close's stead: the close signs the digest itself and puts its signature there. */
const PLACEHOLDER_SIGNATURE = new Uint8Array(64);

/** @param {unknown} error */
function errorFields(error) {
  if (typeof error !== 'object' || error === null) return { name: 'Error', message: String(error) };
  const e = /** @type {{ name?: unknown, message?: unknown, stack?: unknown }} */ (error);
  return {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(error),
    // Only a SubnetError's code is the epoch's failure code (any other error fails it as VALIDATOR_UNEXPECTED).
    ...(isSubnetError(error) ? { code: error.code, context: error.context } : {}),
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
  };
}

/**
 * Posts what `step` returns, or the error it throws (with `phase` when it is not the step's own).
 *
 * @param {() => Record<string, unknown>} step
 */
function answer(step) {
  let out;
  try {
    out = { ok: true, ...step() };
  } catch (error) {
    const fields = errorFields(error);
    const phase = readingRecords ? { phase: 'records' } : {};
    try {
      port?.postMessage({ ok: false, error: fields, ...phase });
    } catch {
      // A context structured clone cannot copy: the code and message are what the close records.
      const { context: _dropped, ...rest } = fields;
      port?.postMessage({ ok: false, error: rest, ...phase });
    }
    return;
  }
  port?.postMessage(out);
}

/**
 * The library's framing of a signed bundle, with the placeholder signature the close replaces with its own.
 *
 * @param {import('@subnet/bundle').Bundle} bundle
 * @param {string | undefined} signerAddress - the validator's address, or undefined for a dry run (no signature)
 */
function framed(bundle, signerAddress) {
  const signer = signerAddress === undefined ? undefined : { address: signerAddress, sign: () => PLACEHOLDER_SIGNATURE };
  const signed = signedBundleText(bundle, signer);
  return { text: signed.text, digest: signed.digest };
}

/** @type {import('@subnet/bundle').ComputeEpochInput | undefined} */
let input;
// While the records are parsed: an error then is the records', not the computation's (the close records nothing).
let readingRecords = workerData.claim === undefined;
/** @type {import('@subnet/bundle').EpochComputation | undefined} */
let result;
if (workerData.claim !== undefined) {
  // A bundle published by reconciliation (reconcile.ts): the claim's text, `{ pending, pending_claim_head }`, as the
  // close stored it, is parsed here and its bundle built (computeEpoch included) off the event loop; then the thread ends.
  answer(() => {
    const bundle = buildBundle(/** @type {never} */ (claimBundleInput(workerData.claim, workerData.submission)));
    return framed(bundle, workerData.signerAddress);
  });
} else {
  answer(() => {
    // The stored record texts are parsed here, as the close's own thread parses them when it computes an epoch itself.
    input = { ...workerData.input, inputs: inputsFromRecords(workerData.records, workerData.carry) };
    readingRecords = false;
    result = computeEpoch(input);
    return {
      u16: result.u16,
      carry: carryText(result),
    };
  });
}

// A computation that threw has nothing more to give: the thread ends.
if (result === undefined) port.close();
port.on('message', (/** @type {{ kind: string, netuid: number, claimHead?: string, submission?: unknown, signerAddress?: string }} */ message) => {
  if (message.kind === 'end' || result === undefined || input === undefined) {
    port.close();
    return;
  }
  const computed = result;
  const kept = input;
  if (message.kind === 'pending') {
    answer(() => ({ text: claimText(kept, message.netuid, /** @type {string} */ (message.claimHead)) }));
  } else if (message.kind === 'bundle') {
    answer(() =>
      framed(buildBundle({ ...kept, netuid: message.netuid, result: computed, submission: /** @type {never} */ (message.submission) }), message.signerAddress),
    );
  }
});
