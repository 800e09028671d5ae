// @ts-check
// The worker thread of an epoch close (epoch-compute.ts, docs/spec.md G.47): runs `computeEpoch` from `@subnet/bundle`
// (its built JavaScript, resolved like any dependency) on the input it is started with, off the validator's event loop,
// and posts back one message:
//
// - `{ ok: true, text }`: the result as `JSON.stringify` writes it (key order kept; the lazy explanation getters read),
//   which the runner parses back: the carry it stores and the bundle it serialises get the same bytes as from the
//   result itself;
// - `{ ok: true, text: null }`: the result holds a value JSON would change (undefined, NaN or ±Infinity, a bigint, a
//   function): the runner computes the epoch on its event loop instead, where it fails or succeeds as it always did;
// - `{ ok: false, error }`: computeEpoch threw; `error` carries its name, code, message and context, so the runner
//   fails the epoch with the same code and message.
//
// Plain JavaScript, not TypeScript: the same file runs from src/ (tests) and from dist/ (the build copies it there),
// and Node 20 runs no TypeScript in a worker thread.
import { parentPort, workerData } from 'node:worker_threads';

import { computeEpoch } from '@subnet/bundle';
import { isSubnetError } from '@subnet/core';

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

const port = parentPort;
if (port === null) throw new Error('epoch-worker.mjs runs as a worker thread (node:worker_threads), not on its own');

let result;
try {
  result = computeEpoch(workerData);
} catch (error) {
  const fields = errorFields(error);
  try {
    port.postMessage({ ok: false, error: fields });
  } catch {
    // A context structured clone cannot copy: the code and message are what the epoch's failure records.
    const { context: _dropped, ...rest } = fields;
    port.postMessage({ ok: false, error: rest });
  }
}
if (result !== undefined) {
  let exact = true;
  const text = JSON.stringify(result, (_key, value) => {
    const kind = typeof value;
    if (value === undefined || kind === 'function' || kind === 'symbol' || kind === 'bigint' || (kind === 'number' && !Number.isFinite(value))) {
      exact = false;
      return null;
    }
    return value;
  });
  port.postMessage({ ok: true, text: exact ? text : null });
}
