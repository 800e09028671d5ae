import type { TypeBuilder } from './type-builder.js';

/**
 * Ids of the types shared by several pallets, declared by hand with the Rust paths Subtensor's runtime
 * gives them (the paths matter: `@polkadot/types` maps `sp_core::crypto::AccountId32`,
 * `sp_runtime::multiaddress::MultiAddress`, `sp_runtime::generic::era::Era`, `*_runtime::RuntimeCall`
 * and friends onto its built-in codecs by path).
 */
export interface CommonTypes {
  readonly u8: number;
  readonly u16: number;
  readonly u32: number;
  readonly u64: number;
  readonly u128: number;
  readonly bool: number;
  readonly str: number;
  readonly unit: number;
  readonly bytes: number;
  readonly bytes4: number;
  readonly bytes8: number;
  readonly bytes20: number;
  readonly bytes32: number;
  readonly bytes64: number;
  readonly bytes65: number;
  readonly compactU16: number;
  readonly compactU32: number;
  readonly compactU64: number;
  readonly vecU16: number;
  readonly vecU64: number;
  readonly vecBool: number;
  readonly vecBytes: number;
  readonly accountId: number;
  readonly vecAccountId: number;
  readonly h256: number;
  readonly vecH256: number;
  readonly cowStr: number;
  readonly weight: number;
  readonly dispatchClass: number;
  readonly pays: number;
  readonly dispatchEventInfo: number;
  readonly dispatchError: number;
  readonly dispatchResult: number;
  readonly multiAddress: number;
  readonly multiSignature: number;
  readonly era: number;
  readonly digest: number;
  readonly header: number;
  readonly runtime: number;
  readonly accountData: number;
  readonly runtimeVersion: number;
  readonly optionU64: number;
  readonly optionU16: number;
  readonly optionBytes32: number;
  readonly optionAccountId: number;
}

/**
 * Declare the shared types into `b`.
 *
 * @param b - The type builder.
 * @returns The ids of the shared types.
 */
export function declareCommonTypes(b: TypeBuilder): CommonTypes {
  const u8 = b.primitive('U8');
  const u16 = b.primitive('U16');
  const u32 = b.primitive('U32');
  const u64 = b.primitive('U64');
  const u128 = b.primitive('U128');
  const bool = b.primitive('Bool');
  const str = b.primitive('Str');
  const unit = b.tuple();
  const bytes = b.sequence(u8);
  const bytes32 = b.array(32, u8);
  const compactU64 = b.compact(u64);
  const compactU32 = b.compact(u32);

  const accountId = b.composite(['sp_core', 'crypto', 'AccountId32'], [[null, bytes32, '[u8; 32]']]);
  const h256 = b.composite(['primitive_types', 'H256'], [[null, bytes32, '[u8; 32]']]);
  const weight = b.composite(
    ['sp_weights', 'weight_v2', 'Weight'],
    [
      ['ref_time', compactU64, 'u64'],
      ['proof_size', compactU64, 'u64'],
    ],
  );
  const dispatchClass = b.variant(
    ['frame_support', 'dispatch', 'DispatchClass'],
    [
      [0, 'Normal'],
      [1, 'Operational'],
      [2, 'Mandatory'],
    ],
  );
  const pays = b.variant(
    ['frame_support', 'dispatch', 'Pays'],
    [
      [0, 'Yes'],
      [1, 'No'],
    ],
  );
  const dispatchEventInfo = b.composite(
    ['frame_system', 'DispatchEventInfo'],
    [
      ['weight', weight, 'Weight'],
      ['class', dispatchClass, 'DispatchClass'],
      ['pays_fee', pays, 'Pays'],
    ],
  );
  const bytes4 = b.array(4, u8);
  const moduleError = b.composite(
    ['sp_runtime', 'ModuleError'],
    [
      ['index', u8, 'u8'],
      ['error', bytes4, '[u8; MAX_MODULE_ERROR_ENCODED_SIZE]'],
    ],
  );
  const tokenError = b.variant(
    ['sp_runtime', 'TokenError'],
    [
      'FundsUnavailable',
      'OnlyProvider',
      'BelowMinimum',
      'CannotCreate',
      'UnknownAsset',
      'Frozen',
      'Unsupported',
      'CannotCreateHold',
      'NotExpendable',
      'Blocked',
    ].map((name, index) => [index, name] as const),
  );
  const arithmeticError = b.variant(
    ['sp_arithmetic', 'ArithmeticError'],
    ['Underflow', 'Overflow', 'DivisionByZero'].map((name, index) => [index, name] as const),
  );
  const transactionalError = b.variant(
    ['sp_runtime', 'TransactionalError'],
    ['LimitReached', 'NoLayer'].map((name, index) => [index, name] as const),
  );
  const trieError = b.variant(
    ['sp_runtime', 'proving_trie', 'TrieError'],
    [
      'InvalidStateRoot',
      'IncompleteDatabase',
      'ValueAtIncompleteKey',
      'DecoderError',
      'InvalidHash',
      'DuplicateKey',
      'ExtraneousNode',
      'ExtraneousValue',
      'ExtraneousHashReference',
      'InvalidChildReference',
      'ValueMismatch',
      'IncompleteProof',
      'RootMismatch',
      'DecodeError',
    ].map((name, index) => [index, name] as const),
  );
  const dispatchError = b.variant(
    ['sp_runtime', 'DispatchError'],
    [
      [0, 'Other'],
      [1, 'CannotLookup'],
      [2, 'BadOrigin'],
      [3, 'Module', [[null, moduleError, 'ModuleError']]],
      [4, 'ConsumerRemaining'],
      [5, 'NoProviders'],
      [6, 'TooManyConsumers'],
      [7, 'Token', [[null, tokenError, 'TokenError']]],
      [8, 'Arithmetic', [[null, arithmeticError, 'ArithmeticError']]],
      [9, 'Transactional', [[null, transactionalError, 'TransactionalError']]],
      [10, 'Exhausted'],
      [11, 'Corruption'],
      [12, 'Unavailable'],
      [13, 'RootNotAllowed'],
      [14, 'Trie', [[null, trieError, 'TrieError']]],
    ],
  );
  const dispatchResult = b.result(unit, dispatchError);

  const compactUnit = b.compact(unit);
  const bytes20 = b.array(20, u8);
  const multiAddress = b.variant(
    ['sp_runtime', 'multiaddress', 'MultiAddress'],
    [
      [0, 'Id', [[null, accountId, 'AccountId']]],
      [1, 'Index', [[null, compactUnit, 'AccountIndex']]],
      [2, 'Raw', [[null, bytes, 'Vec<u8>']]],
      [3, 'Address32', [[null, bytes32, '[u8; 32]']]],
      [4, 'Address20', [[null, bytes20, '[u8; 20]']]],
    ],
    [
      { name: 'AccountId', type: accountId },
      { name: 'AccountIndex', type: unit },
    ],
  );
  const bytes64 = b.array(64, u8);
  const bytes65 = b.array(65, u8);
  const multiSignature = b.variant(
    ['sp_runtime', 'MultiSignature'],
    [
      [0, 'Ed25519', [[null, bytes64, 'ed25519::Signature']]],
      [1, 'Sr25519', [[null, bytes64, 'sr25519::Signature']]],
      [2, 'Ecdsa', [[null, bytes65, 'ecdsa::Signature']]],
    ],
  );
  // Era: Immortal, then Mortal1..Mortal255, each carrying one more byte (the two-byte mortal encoding).
  const eraVariants: [number, string, [null, number][]][] = [[0, 'Immortal', []]];
  for (let i = 1; i <= 255; i++) eraVariants.push([i, `Mortal${i}`, [[null, u8]]]);
  const era = b.variant(['sp_runtime', 'generic', 'era', 'Era'], eraVariants);

  const digestItem = b.variant(
    ['sp_runtime', 'generic', 'digest', 'DigestItem'],
    [
      [
        6,
        'PreRuntime',
        [
          [null, bytes4, 'ConsensusEngineId'],
          [null, bytes, 'Vec<u8>'],
        ],
      ],
      [
        4,
        'Consensus',
        [
          [null, bytes4, 'ConsensusEngineId'],
          [null, bytes, 'Vec<u8>'],
        ],
      ],
      [
        5,
        'Seal',
        [
          [null, bytes4, 'ConsensusEngineId'],
          [null, bytes, 'Vec<u8>'],
        ],
      ],
      [0, 'Other', [[null, bytes, 'Vec<u8>']]],
      [8, 'RuntimeEnvironmentUpdated'],
    ],
  );
  const digest = b.composite(['sp_runtime', 'generic', 'digest', 'Digest'], [['logs', b.sequence(digestItem), 'Vec<DigestItem>']]);
  const header = b.composite(
    ['sp_runtime', 'generic', 'header', 'Header'],
    [
      ['parent_hash', h256, 'Hash::Output'],
      ['number', compactU32, 'Number'],
      ['state_root', h256, 'Hash::Output'],
      ['extrinsics_root', h256, 'Hash::Output'],
      ['digest', digest, 'Digest'],
    ],
    [
      { name: 'Number', type: u32 },
      { name: 'Hash', type: null },
    ],
  );
  const runtime = b.composite(['node_subtensor_runtime', 'Runtime'], []);
  const extraFlags = b.composite(['pallet_balances', 'types', 'ExtraFlags'], [[null, u128, 'u128']]);
  const accountData = b.composite(
    ['pallet_balances', 'types', 'AccountData'],
    [
      ['free', u64, 'Balance'],
      ['reserved', u64, 'Balance'],
      ['frozen', u64, 'Balance'],
      ['flags', extraFlags, 'ExtraFlags'],
    ],
    [{ name: 'Balance', type: u64 }],
  );

  const bytes8 = b.array(8, u8);
  const cowStr = b.composite(['Cow'], [[null, str]], [{ name: 'T', type: str }]);
  const apisVec = b.composite(['Cow'], [[null, b.sequence(b.tuple(bytes8, u32))]], [{ name: 'T', type: b.sequence(b.tuple(bytes8, u32)) }]);
  const runtimeVersion = b.composite(
    ['sp_version', 'RuntimeVersion'],
    [
      ['spec_name', cowStr, "Cow<'static, str>"],
      ['impl_name', cowStr, "Cow<'static, str>"],
      ['authoring_version', u32, 'u32'],
      ['spec_version', u32, 'u32'],
      ['impl_version', u32, 'u32'],
      ['apis', apisVec, 'ApisVec'],
      ['transaction_version', u32, 'u32'],
      ['system_version', u8, 'u8'],
    ],
  );

  return {
    u8,
    u16,
    u32,
    u64,
    u128,
    bool,
    str,
    unit,
    bytes,
    bytes4,
    bytes8,
    bytes20,
    bytes32,
    bytes64,
    bytes65,
    compactU16: b.compact(u16),
    compactU32,
    compactU64,
    vecU16: b.sequence(u16),
    vecU64: b.sequence(u64),
    vecBool: b.sequence(bool),
    vecBytes: b.sequence(bytes),
    accountId,
    vecAccountId: b.sequence(accountId),
    h256,
    vecH256: b.sequence(h256),
    cowStr,
    weight,
    dispatchClass,
    pays,
    dispatchEventInfo,
    dispatchError,
    dispatchResult,
    multiAddress,
    multiSignature,
    era,
    digest,
    header,
    runtime,
    accountData,
    runtimeVersion,
    optionU64: b.option(u64),
    optionU16: b.option(u16),
    optionBytes32: b.option(bytes32),
    optionAccountId: b.option(accountId),
  };
}
