import type { CommonTypes } from './common-types.js';
import type { TypeBuilder } from './type-builder.js';

/** One signed (transaction) extension of the V15 extrinsic metadata. */
export interface SignedExtensionDecl {
  readonly identifier: string;
  /** The type of the bytes the extension adds to the extrinsic. */
  readonly type: number;
  /** The type of the bytes the extension adds to the signed payload only (`implicit`). */
  readonly additionalSigned: number;
}

/** The extrinsic section of the metadata plus the opaque extrinsic / block types the runtime APIs use. */
export interface ExtrinsicDecl {
  readonly version: number;
  readonly addressType: number;
  readonly callType: number;
  readonly signatureType: number;
  readonly extraType: number;
  readonly signedExtensions: readonly SignedExtensionDecl[];
  /** `fp_self_contained::unchecked_extrinsic::UncheckedExtrinsic<Address, Call, Signature, Extension>`. */
  readonly uncheckedExtrinsic: number;
  /** `sp_runtime::generic::block::Block<Header, UncheckedExtrinsic>`. */
  readonly block: number;
}

/**
 * The identifiers of Subtensor's transaction extensions, in the order they are encoded: `TxExtension` =
 * `SystemTxExtension`, `CustomTxExtension`, `CheckMetadataHash` (opentensor/subtensor ab0cb2e52
 * `runtime/src/lib.rs:1669-1689`; `:1650-1670` at 14bc6f9f9); the wrapper `ChargeTransactionPaymentWrapper` reports
 * itself as `ChargeTransactionPayment` (`runtime/src/transaction_payment_wrapper.rs:265-267`, both commits).
 *
 * @example
 * SIGNED_EXTENSION_IDENTIFIERS.at(-1); // 'CheckMetadataHash'
 */
export const SIGNED_EXTENSION_IDENTIFIERS: readonly string[] = Object.freeze([
  'CheckNonZeroSender',
  'CheckSpecVersion',
  'CheckTxVersion',
  'CheckGenesis',
  'CheckMortality',
  'CheckNonce',
  'CheckWeight',
  'ChargeTransactionPayment',
  'SudoTransactionExtension',
  'CheckShieldedTxValidity',
  'SubtensorTransactionExtension',
  'DrandPriority',
  'CheckMetadataHash',
]);

/**
 * Declare the extrinsic format: version 4, `MultiAddress<AccountId32, ()>`, `MultiSignature`, and the 13
 * transaction extensions with finney's types (mortality era, compact nonce, compact tip, metadata-hash
 * mode + `Option<[u8; 32]>` implicit, four zero-size Subtensor extensions).
 *
 * @param b - The type builder.
 * @param t - The shared types.
 * @param runtimeCall - The outer `RuntimeCall` enum id.
 * @returns The extrinsic declaration.
 */
export function declareExtrinsic(b: TypeBuilder, t: CommonTypes, runtimeCall: number): ExtrinsicDecl {
  const phantom = [{ name: 'T', type: null }] as const;
  const ofRuntime = [{ name: 'T', type: t.runtime }] as const;
  const checkNonZeroSender = b.composite(['frame_system', 'extensions', 'check_non_zero_sender', 'CheckNonZeroSender'], [], phantom);
  const checkSpecVersion = b.composite(['frame_system', 'extensions', 'check_spec_version', 'CheckSpecVersion'], [], phantom);
  const checkTxVersion = b.composite(['frame_system', 'extensions', 'check_tx_version', 'CheckTxVersion'], [], phantom);
  const checkGenesis = b.composite(['frame_system', 'extensions', 'check_genesis', 'CheckGenesis'], [], phantom);
  const checkMortality = b.composite(['node_subtensor_runtime', 'check_mortality', 'CheckMortality'], [[null, t.era, 'Era']], phantom);
  const checkNonce = b.composite(['node_subtensor_runtime', 'check_nonce', 'CheckNonce'], [[null, t.compactU32, 'T::Nonce']], phantom);
  const checkWeight = b.composite(['frame_system', 'extensions', 'check_weight', 'CheckWeight'], [], phantom);
  const chargeTransactionPayment = b.composite(['pallet_transaction_payment', 'ChargeTransactionPayment'], [[null, t.compactU64, 'BalanceOf<T>']], phantom);
  const chargeWrapper = b.composite(
    ['node_subtensor_runtime', 'transaction_payment_wrapper', 'ChargeTransactionPaymentWrapper'],
    [['inner', chargeTransactionPayment, 'ChargeTransactionPayment<T>']],
    phantom,
  );
  const sudoExtension = b.composite(['node_subtensor_runtime', 'sudo_wrapper', 'SudoTransactionExtension'], [], ofRuntime);
  const shieldedTx = b.composite(['pallet_shield', 'extension', 'CheckShieldedTxValidity'], [], ofRuntime);
  const subtensorExtension = b.composite(['pallet_subtensor', 'extensions', 'subtensor', 'SubtensorTransactionExtension'], [], ofRuntime);
  const drandPriority = b.composite(['pallet_drand', 'drand_priority', 'DrandPriority'], [], ofRuntime);
  const mode = b.variant(
    ['frame_metadata_hash_extension', 'Mode'],
    [
      [0, 'Disabled'],
      [1, 'Enabled'],
    ],
  );
  const checkMetadataHash = b.composite(['frame_metadata_hash_extension', 'CheckMetadataHash'], [['mode', mode, 'Mode']], phantom);

  // The extension tuple as the runtime nests it: ((system checks), (payment + subtensor), metadata hash).
  const extraType = b.tuple(
    b.tuple(checkNonZeroSender, checkSpecVersion, checkTxVersion, checkGenesis, checkMortality, checkNonce, checkWeight),
    b.tuple(chargeWrapper, sudoExtension, shieldedTx, subtensorExtension, drandPriority),
    checkMetadataHash,
  );
  const ext = (identifier: string, type: number, additionalSigned: number): SignedExtensionDecl => ({ identifier, type, additionalSigned });
  const signedExtensions = [
    ext('CheckNonZeroSender', checkNonZeroSender, t.unit),
    ext('CheckSpecVersion', checkSpecVersion, t.u32),
    ext('CheckTxVersion', checkTxVersion, t.u32),
    ext('CheckGenesis', checkGenesis, t.h256),
    ext('CheckMortality', checkMortality, t.h256),
    ext('CheckNonce', checkNonce, t.unit),
    ext('CheckWeight', checkWeight, t.unit),
    ext('ChargeTransactionPayment', chargeTransactionPayment, t.unit),
    ext('SudoTransactionExtension', sudoExtension, t.unit),
    ext('CheckShieldedTxValidity', shieldedTx, t.unit),
    ext('SubtensorTransactionExtension', subtensorExtension, t.unit),
    ext('DrandPriority', drandPriority, t.unit),
    ext('CheckMetadataHash', checkMetadataHash, t.optionBytes32),
  ];

  const extrinsicParams = [
    { name: 'Address', type: t.multiAddress },
    { name: 'Call', type: runtimeCall },
    { name: 'Signature', type: t.multiSignature },
  ] as const;
  const genericUnchecked = b.composite(
    ['sp_runtime', 'generic', 'unchecked_extrinsic', 'UncheckedExtrinsic'],
    [[null, t.bytes]],
    [...extrinsicParams, { name: 'Extra', type: extraType }],
  );
  const uncheckedExtrinsic = b.composite(
    ['fp_self_contained', 'unchecked_extrinsic', 'UncheckedExtrinsic'],
    [[null, genericUnchecked, 'generic::UncheckedExtrinsic<Address, Call, Signature, Extension>']],
    [...extrinsicParams, { name: 'Extension', type: extraType }],
  );
  const block = b.composite(
    ['sp_runtime', 'generic', 'block', 'Block'],
    [
      ['header', t.header, 'Header'],
      ['extrinsics', b.sequence(uncheckedExtrinsic), 'Vec<Extrinsic>'],
    ],
    [
      { name: 'Header', type: t.header },
      { name: 'Extrinsic', type: uncheckedExtrinsic },
    ],
  );
  return {
    version: 4,
    addressType: t.multiAddress,
    callType: runtimeCall,
    signatureType: t.multiSignature,
    extraType,
    signedExtensions,
    uncheckedExtrinsic,
    block,
  };
}
