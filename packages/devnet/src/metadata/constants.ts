/**
 * SS58 address prefix of Subtensor (finney and the devnet): 42, the generic Substrate prefix.
 *
 * @example
 * encodeAddress(publicKey, SS58_PREFIX);
 */
export const SS58_PREFIX = 42;

/**
 * Pallet indices of the pallets the devnet metadata declares: the real indices of Subtensor's
 * `construct_runtime!` (finney spec 393). The call index of an extrinsic is `[PALLET_INDEX[p], call]`,
 * a module error is `DispatchError::Module { index: PALLET_INDEX[p], error: [e, 0, 0, 0] }`.
 *
 * @example
 * PALLET_INDEX.SubtensorModule; // 7
 */
export const PALLET_INDEX = Object.freeze({
  System: 0,
  Timestamp: 2,
  Balances: 5,
  TransactionPayment: 6,
  SubtensorModule: 7,
  Drand: 26,
} as const);

/** The name of a pallet the devnet metadata declares. */
export type DevnetPalletName = keyof typeof PALLET_INDEX;

/**
 * Call indices (within `SubtensorModule`) of the weights calls, as Subtensor's `#[pallet::call_index]`.
 *
 * @example
 * [PALLET_INDEX.SubtensorModule, SUBTENSOR_CALL_INDEX.set_weights]; // [7, 0]
 */
export const SUBTENSOR_CALL_INDEX = Object.freeze({
  set_weights: 0,
  serve_axon: 4,
  batch_set_weights: 80,
  commit_weights: 96,
  reveal_weights: 97,
  batch_reveal_weights: 98,
  batch_commit_weights: 100,
  commit_timelocked_weights: 113,
  commit_mechanism_weights: 115,
  reveal_mechanism_weights: 116,
  commit_crv3_mechanism_weights: 117,
  commit_timelocked_mechanism_weights: 118,
  set_mechanism_weights: 119,
} as const);

/** Token properties the devnet reports through `system_properties` (as finney: TAO, 9 decimals). */
export const CHAIN_PROPERTIES = Object.freeze({ ss58Format: SS58_PREFIX, tokenDecimals: 9, tokenSymbol: 'TAO' } as const);
