// @ts-check
// The epoch's computation inputs from its stored records (epoch-runner.ts re-exports it as `inputsFromRecords`). Plain
// JavaScript, not TypeScript: the close's worker thread (epoch-worker.mjs, docs/spec.md G.47) imports it too, from
// src/ in tests and from dist/ once built, so the stored record texts are parsed there, off the event loop, by the
// same code the event loop runs when it computes an epoch itself.

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
