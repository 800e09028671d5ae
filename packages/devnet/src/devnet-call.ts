import type { ServeAxonCall } from './axon-rules.js';

/** A decoded call the devnet's runtime executes. Accounts are 0x hex public keys; u64s are bigints. */
export type DevnetCall =
  | { kind: 'set_weights'; netuid: number; mecid: number; uids: number[]; values: number[]; versionKey: bigint; mechanism: boolean }
  | { kind: 'batch_set_weights'; netuids: number[]; weights: [number, number][][]; versionKeys: bigint[] }
  | { kind: 'commit_weights'; netuid: number; mecid: number; hash: string; mechanism: boolean }
  | { kind: 'batch_commit_weights'; netuids: number[]; hashes: string[] }
  | {
      kind: 'reveal_weights';
      netuid: number;
      mecid: number;
      uids: number[];
      values: number[];
      salt: number[];
      versionKey: bigint;
      mechanism: boolean;
    }
  | {
      kind: 'batch_reveal_weights';
      netuid: number;
      uidsList: number[][];
      valuesList: number[][];
      saltsList: number[][];
      versionKeys: bigint[];
    }
  | {
      kind: 'commit_timelocked_weights';
      netuid: number;
      mecid: number;
      commit: string;
      revealRound: bigint;
      version: number;
      /** `commit_timelocked_mechanism_weights` or `commit_crv3_mechanism_weights` (the legacy pool does not guard them). */
      mechanism: boolean;
    }
  | ServeAxonCall
  | { kind: 'remark'; withEvent: boolean; remark: string };

/** A runtime event to encode: pallet, variant name and positional field values. */
export interface DevnetEvent {
  readonly pallet: string;
  readonly name: string;
  readonly fields: readonly unknown[];
}

/** The outcome of dispatching a call: events on success, or the module error name. */
export type DispatchOutcome =
  { readonly ok: true; readonly events: readonly DevnetEvent[] } | { readonly ok: false; readonly error: string; readonly events: readonly DevnetEvent[] };
