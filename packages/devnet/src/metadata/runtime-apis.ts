import type { CommonTypes } from './common-types.js';
import type { ExtrinsicDecl } from './extrinsic.js';
import { indexed } from './pallet-decl.js';
import type { TypeBuilder } from './type-builder.js';

/** One runtime API method (V15 `RuntimeApiMethodMetadataV15`). */
export interface RuntimeApiMethodDecl {
  readonly name: string;
  readonly inputs: readonly { readonly name: string; readonly type: number }[];
  readonly output: number;
  readonly docs: readonly string[];
}

/** One runtime API trait (V15 `RuntimeApiMetadataV15`); its version lives in the runtime version. */
export interface RuntimeApiDecl {
  readonly name: string;
  readonly methods: readonly RuntimeApiMethodDecl[];
  readonly docs: readonly string[];
}

/**
 * Declare the runtime APIs the devnet serves through `state_call`: `Core`, `Metadata`,
 * `TaggedTransactionQueue`, `AccountNonceApi` and `SubnetInfoRuntimeApi.get_next_epoch_start_block`.
 * Their versions are listed in `RUNTIME_VERSION.apis` (same order).
 *
 * @param b - The type builder.
 * @param t - The shared types.
 * @param x - The extrinsic declaration (for the opaque extrinsic and block types).
 * @returns The runtime API declarations.
 */
export function declareRuntimeApis(b: TypeBuilder, t: CommonTypes, x: ExtrinsicDecl): RuntimeApiDecl[] {
  const method = (name: string, inputs: [string, number][], output: number, docs: string[] = []): RuntimeApiMethodDecl => ({
    name,
    inputs: inputs.map(([n, type]) => ({ name: n, type })),
    output,
    docs,
  });
  const inclusionMode = b.variant(['sp_runtime', 'ExtrinsicInclusionMode'], indexed(['AllExtrinsics', 'OnlyInherents']));
  const opaqueMetadata = b.composite(['sp_core', 'OpaqueMetadata'], [[null, t.bytes, 'Vec<u8>']]);
  const source = b.variant(['sp_runtime', 'transaction_validity', 'TransactionSource'], indexed(['InBlock', 'Local', 'External']));
  const invalid = b.variant(
    ['sp_runtime', 'transaction_validity', 'InvalidTransaction'],
    [
      [0, 'Call'],
      [1, 'Payment'],
      [2, 'Future'],
      [3, 'Stale'],
      [4, 'BadProof'],
      [5, 'AncientBirthBlock'],
      [6, 'ExhaustsResources'],
      [7, 'Custom', [[null, t.u8, 'u8']]],
      [8, 'BadMandatory'],
      [9, 'MandatoryValidation'],
      [10, 'BadSigner'],
      [11, 'IndeterminateImplicit'],
      [12, 'UnknownOrigin'],
    ],
  );
  const unknown = b.variant(
    ['sp_runtime', 'transaction_validity', 'UnknownTransaction'],
    [
      [0, 'CannotLookup'],
      [1, 'NoUnsignedValidator'],
      [2, 'Custom', [[null, t.u8, 'u8']]],
    ],
  );
  const validityError = b.variant(
    ['sp_runtime', 'transaction_validity', 'TransactionValidityError'],
    [
      [0, 'Invalid', [[null, invalid, 'InvalidTransaction']]],
      [1, 'Unknown', [[null, unknown, 'UnknownTransaction']]],
    ],
  );
  const valid = b.composite(
    ['sp_runtime', 'transaction_validity', 'ValidTransaction'],
    [
      ['priority', t.u64, 'TransactionPriority'],
      ['requires', t.vecBytes, 'Vec<TransactionTag>'],
      ['provides', t.vecBytes, 'Vec<TransactionTag>'],
      ['longevity', t.u64, 'TransactionLongevity'],
      ['propagate', t.bool, 'bool'],
    ],
  );
  return [
    {
      name: 'Core',
      methods: [
        method('version', [], t.runtimeVersion, [' Returns the version of the runtime.']),
        method('execute_block', [['block', x.block]], t.unit, [' Execute the given block.']),
        method('initialize_block', [['header', t.header]], inclusionMode, [' Initialize a block with the given header and return the runtime executive mode.']),
      ],
      docs: [' The `Core` runtime api that every Substrate runtime needs to implement.'],
    },
    {
      name: 'Metadata',
      methods: [
        method('metadata', [], opaqueMetadata, [' Returns the metadata of a runtime.']),
        method('metadata_at_version', [['version', t.u32]], b.option(opaqueMetadata), [' Returns the metadata at a given version.']),
        method('metadata_versions', [], b.sequence(t.u32), [' Returns the supported metadata versions.']),
      ],
      docs: [' The `Metadata` api trait that returns metadata for the runtime.'],
    },
    {
      name: 'TaggedTransactionQueue',
      methods: [
        method(
          'validate_transaction',
          [
            ['source', source],
            ['tx', x.uncheckedExtrinsic],
            ['block_hash', t.h256],
          ],
          b.result(valid, validityError),
          [' Validate the transaction.'],
        ),
      ],
      docs: [' The `TaggedTransactionQueue` api trait for interfering with the transaction queue.'],
    },
    {
      name: 'AccountNonceApi',
      methods: [method('account_nonce', [['account', t.accountId]], t.u32, [' Get current account nonce of given `AccountId`.'])],
      docs: [' The API to query account nonce.'],
    },
    {
      name: 'SubnetInfoRuntimeApi',
      methods: [method('get_next_epoch_start_block', [['netuid', t.u16]], t.optionU64, [' Absolute block when the next tempo epoch starts for `netuid`.'])],
      docs: [],
    },
  ];
}
