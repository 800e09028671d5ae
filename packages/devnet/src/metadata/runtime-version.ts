/** One runtime API entry of the runtime version: `[blake2_64(api name) as hex, api version]`. */
export type RuntimeApiVersion = readonly [hash: `0x${string}`, version: number];

/** The value `state_getRuntimeVersion` returns (the JSON shape of `sp_version::RuntimeVersion`). */
export interface RuntimeVersionJson {
  readonly specName: string;
  readonly implName: string;
  readonly authoringVersion: number;
  readonly specVersion: number;
  readonly implVersion: number;
  readonly apis: readonly RuntimeApiVersion[];
  readonly transactionVersion: number;
  readonly systemVersion: number;
  readonly stateVersion: number;
}

/** The two Subtensor runtimes the devnet can run (chain README "Epochs on the two runtimes"). */
export type DevnetRuntimeKind = 'legacy' | 'stateful';

/**
 * The devnet's legacy runtime version: finney's spec name, spec 393 and transaction version 1, and one `apis`
 * entry per runtime API the devnet metadata declares (Core 5, Metadata 2, TaggedTransactionQueue 3,
 * AccountNonceApi 1 as finney; SubnetInfoRuntimeApi 2 as Subtensor main, where
 * `get_next_epoch_start_block` lives). The hashes are `blake2_64` of the API names (pinned by a test).
 * It is also the value of the `System.Version` constant.
 *
 * @example
 * // JSON-RPC: { "jsonrpc": "2.0", "id": 1, "result": RUNTIME_VERSION }
 * RUNTIME_VERSION.specVersion; // 393
 */
export const RUNTIME_VERSION: RuntimeVersionJson = Object.freeze({
  specName: 'node-subtensor',
  implName: 'node-subtensor',
  authoringVersion: 1,
  specVersion: 393,
  implVersion: 1,
  apis: Object.freeze([
    Object.freeze(['0xdf6acb689907609b', 5] as const), // Core
    Object.freeze(['0x37e397fc7c91f5e4', 2] as const), // Metadata
    Object.freeze(['0xd2bc9897eed08f15', 3] as const), // TaggedTransactionQueue
    Object.freeze(['0xbc9d89904f5b923f', 1] as const), // AccountNonceApi
    Object.freeze(['0x8375104b299b74c5', 2] as const), // SubnetInfoRuntimeApi
  ]),
  transactionVersion: 1,
  systemVersion: 1,
  stateVersion: 1,
});

/**
 * The stateful runtime's version: as {@link RUNTIME_VERSION} with spec 425, the spec of Subtensor main at
 * opentensor/subtensor 14bc6f9f9 (`runtime/src/lib.rs:237`), which has `SubnetEpochIndex`, `LastEpochBlock`
 * and `PendingEpochAt` (the legacy runtime, spec 393 at ab0cb2e52, has none of them).
 *
 * @example
 * STATEFUL_RUNTIME_VERSION.specVersion; // 425
 */
export const STATEFUL_RUNTIME_VERSION: RuntimeVersionJson = Object.freeze({ ...RUNTIME_VERSION, specVersion: 425 });

/**
 * The runtime version of a runtime kind: `legacy` = finney spec 393 ({@link RUNTIME_VERSION}), `stateful` =
 * Subtensor main ({@link STATEFUL_RUNTIME_VERSION}); `specVersion` replaces the spec version (the devnet's
 * `specVersion` option: a legacy runtime between 393 and 422, docs/spec.md G.33).
 *
 * @param kind - the runtime kind
 * @param specVersion - the spec version to report instead of the kind's own
 * @returns the runtime version
 * @example
 * runtimeVersionOf('legacy').specVersion; // 393
 * runtimeVersionOf('legacy', 400).specVersion; // 400
 */
export function runtimeVersionOf(kind: DevnetRuntimeKind, specVersion?: number): RuntimeVersionJson {
  const version = kind === 'legacy' ? RUNTIME_VERSION : STATEFUL_RUNTIME_VERSION;
  return specVersion === undefined || specVersion === version.specVersion ? version : Object.freeze({ ...version, specVersion });
}
