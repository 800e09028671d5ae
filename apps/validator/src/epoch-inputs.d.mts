import type { buildBundle, ComputeEpochInput, EpochComputation, SubmissionRecord } from '@subnet/bundle';

import type { StoredRecord } from './storage.js';

/**
 * Turns stored records into the bundle's epoch inputs (wire form): record bodies with their `seq`, peer
 * score documents expanded per miner (with the document's record id and seq; whether the peer counts is
 * decided by `computeEpoch`, which lists refused ones as excluded), the registered tasks, the epoch's
 * candidate snapshot, and the carried state (window, decay, reputations).
 *
 * @param records - the epoch's stored records
 * @param carry - the previous epoch's carry JSON (window state, decay states, reputations), or null
 * @returns the inputs
 * @example inputsFromRecords(await storage.records(7), await storage.latestCarry(7))
 */
export function inputsFromRecords(records: readonly Pick<StoredRecord, 'kind' | 'recordId' | 'seq' | 'body'>[], carry: string | null): Record<string, unknown>;

/** The carried state of a computation as the epoch row stores it: `JSON.stringify({ window_state, decay_states, reputations })`. */
export function carryText(result: Pick<EpochComputation, 'window_state' | 'decay_states' | 'reputations'>): string;

/** What a `submitting` claim keeps: `canonicalJson({ pending: { ...input, netuid }, pending_claim_head })`. */
export function claimText(input: ComputeEpochInput, netuid: number, claimHead: string): string;

/** `buildBundle`'s input from a claim's text ({@link claimText}) and the outcome's submission: `{ ...pending, submission }`. */
export function claimBundleInput(text: string, submission: SubmissionRecord): Parameters<typeof buildBundle>[0];
