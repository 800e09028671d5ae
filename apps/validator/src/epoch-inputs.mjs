// @ts-check
// The epoch's computation inputs from its stored records (epoch-runner.ts re-exports it as `inputsFromRecords`). Plain
// JavaScript, not TypeScript: the close's worker thread (epoch-worker.mjs, docs/spec.md G.47) imports it too, from
// src/ in tests and from dist/ once built, so the stored record texts are parsed there, off the event loop, by the
// same code the event loop runs when it computes an epoch itself. It also writes the texts a close stores from a
// computation (the carry, a `submitting` claim) and reads a claim back, so that the worker thread and the event loop
// (the fallback, a runner without a worker) give the same bytes from one piece of code.

import { canonicalJson } from '@subnet/core';

/**
 * Turns stored records into the bundle's epoch inputs (wire form): record bodies with their `seq`, peer
 * score documents expanded per miner (with the document's record id and seq; whether the peer counts is
 * decided by `computeEpoch`, which lists refused ones as excluded), the registered tasks, the epoch's
 * candidate snapshot, and the carried state (window, decay, reputations).
 *
 * @param {readonly { readonly kind: string, readonly recordId: string, readonly seq: number, readonly body: string }[]} records - the epoch's stored records
 * @param {string | null} carry - the previous epoch's carry JSON (window state, decay states, reputations), or null
 * @returns {Record<string, unknown>} the inputs
 * @example inputsFromRecords(await storage.records(7), await storage.latestCarry(7))
 */
export function inputsFromRecords(records, carry) {
  /** @type {Record<string, unknown[]>} */
  const lists = { workflow_runs: [], tasks: [], sssa_submissions: [], term_results: [], bounty_records: [], peer_scores: [] };
  /** @type {{ candidates: unknown[], reputations: unknown } | undefined} */
  let snapshot;
  for (const r of records) {
    const body = /** @type {Record<string, unknown>} */ (JSON.parse(r.body));
    switch (r.kind) {
      case 'workflow_run':
        lists.workflow_runs?.push({ ...body, seq: r.seq });
        break;
      case 'task':
        lists.tasks?.push({ ...body, seq: r.seq });
        break;
      case 'task_snapshot':
        snapshot = /** @type {{ candidates: unknown[], reputations: unknown }} */ (body);
        break;
      case 'sssa':
        lists.sssa_submissions?.push({ ...body, seq: r.seq });
        break;
      case 'term_result':
        lists.term_results?.push({ ...body, seq: r.seq });
        break;
      case 'bounty':
        lists.bounty_records?.push({ ...body, seq: r.seq });
        break;
      case 'peer_score': {
        const doc = /** @type {{ validator_hotkey: string, challenge_id: string, scores: { miner_hotkey: string, score: number }[] }} */ (body);
        for (const s of doc.scores) {
          lists.peer_scores?.push({
            record_id: r.recordId,
            seq: r.seq,
            validator_hotkey: doc.validator_hotkey,
            challenge_id: doc.challenge_id,
            miner_hotkey: s.miner_hotkey,
            score: s.score,
          });
        }
        break;
      }
    }
  }
  const carried = /** @type {{ window_state?: unknown, decay_states?: unknown[], reputations?: unknown }} */ (carry === null ? {} : JSON.parse(carry));
  return {
    ...lists,
    candidates: snapshot?.candidates ?? [],
    window_state: carried.window_state ?? null,
    decay_states: carried.decay_states ?? [],
    // The table the epoch's draws used (its snapshot), else the one carried from the previous close.
    reputations: snapshot === undefined ? (carried.reputations ?? null) : snapshot.reputations,
  };
}

/**
 * The carried state of a computation as the epoch row stores it.
 *
 * @param {{ readonly window_state: unknown, readonly decay_states: unknown, readonly reputations: unknown }} result - `computeEpoch`'s result
 * @returns {string} `JSON.stringify({ window_state, decay_states, reputations })`
 * @example carryText(computeEpoch(input))
 */
export function carryText(result) {
  return JSON.stringify({ window_state: result.window_state, decay_states: result.decay_states, reputations: result.reputations });
}

/**
 * What a `submitting` claim keeps: the computation's input with the netuid, and the head at the claim (the bound of a
 * later reconciliation's chain scan), as canonical JSON.
 *
 * @param {object} input - `computeEpoch`'s input
 * @param {number} netuid - the subnet
 * @param {string} claimHead - the head at the claim, in decimal
 * @returns {string} `canonicalJson({ pending: { ...input, netuid }, pending_claim_head })`
 * @example claimText(input, 7, '1234')
 */
export function claimText(input, netuid, claimHead) {
  return canonicalJson({ pending: { ...input, netuid }, pending_claim_head: claimHead });
}

/**
 * `buildBundle`'s input from a claim's text ({@link claimText}) and the outcome's submission.
 *
 * @param {string} text - the claim as stored
 * @param {unknown} submission - the submission record
 * @returns {Record<string, unknown>} `{ ...pending, submission }`
 * @example buildBundle(claimBundleInput(row.bundle, submission))
 */
export function claimBundleInput(text, submission) {
  const claim = /** @type {{ pending: Record<string, unknown> }} */ (JSON.parse(text));
  return { ...claim.pending, submission };
}
