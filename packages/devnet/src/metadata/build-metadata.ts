import { TypeRegistry } from '@polkadot/types';
import type { PortableRegistry } from '@polkadot/types';
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { declareCommonTypes } from './common-types.js';
import { declareExtrinsic, type ExtrinsicDecl } from './extrinsic.js';
import { balancesEnums, balancesPallet } from './pallet-balances.js';
import type { PalletDecl, PalletEnums } from './pallet-decl.js';
import { drandEnums, drandPallet } from './pallet-drand.js';
import { subtensorEnums, subtensorPallet } from './pallet-subtensor.js';
import { systemEnums, systemPallet } from './pallet-system.js';
import { timestampEnums, timestampPallet } from './pallet-timestamp.js';
import { transactionPaymentEnums, transactionPaymentPallet } from './pallet-transaction-payment.js';
import { declareRuntimeApis, type RuntimeApiDecl } from './runtime-apis.js';
import { runtimeVersionOf, type DevnetRuntimeKind } from './runtime-version.js';
import { createTypeBuilder, type PortableTypeJson, type TypeBuilder, type VariantDecl } from './type-builder.js';

/**
 * The metadata version the devnet serves (V15: it carries the runtime API definitions).
 *
 * @example
 * buildMetadata()[4] === METADATA_VERSION; // true
 */
export const METADATA_VERSION = 15;

/** `"meta"`: the magic number that prefixes `RuntimeMetadataPrefixed`. */
const MAGIC = new Uint8Array([0x6d, 0x65, 0x74, 0x61]);

/** The whole runtime as declared: portable types, pallets, extrinsic format, runtime APIs. */
export interface RuntimeDecl {
  readonly types: readonly PortableTypeJson[];
  readonly pallets: readonly PalletDecl[];
  readonly extrinsic: ExtrinsicDecl;
  readonly apis: readonly RuntimeApiDecl[];
  readonly runtimeType: number;
  readonly outerEnums: { readonly callType: number; readonly eventType: number; readonly errorType: number };
}

function outerEnum(b: TypeBuilder, name: string, entries: readonly { name: string; index: number; type: number | undefined; typeName: string }[]): number {
  const variants: VariantDecl[] = [];
  for (const e of entries) if (e.type !== undefined) variants.push([e.index, e.name, [[null, e.type, e.typeName]]]);
  return b.variant(['node_subtensor_runtime', name], variants);
}

/**
 * Declare the devnet runtime (all types by hand, through the type builder): `stateful` (default, Subtensor
 * main) or `legacy` (finney spec 393: no `SubnetEpochIndex` / `LastEpochBlock` / `PendingEpochAt`, spec 393).
 *
 * @param kind - which runtime
 * @param specVersion - the spec version of the `System.Version` constant instead of the kind's own (393 or 425)
 * @returns The runtime declaration; deterministic (same ids every call).
 * @example
 * encodeRuntimeMetadata(declareRuntime()); // the bytes buildMetadata() caches
 */
export function declareRuntime(kind: DevnetRuntimeKind = 'stateful', specVersion?: number): RuntimeDecl {
  const b = createTypeBuilder();
  const t = declareCommonTypes(b);
  const enums: { name: string; index: number; crate: string; enums: PalletEnums }[] = [
    { name: 'System', index: 0, crate: 'frame_system', enums: systemEnums(b, t) },
    { name: 'Timestamp', index: 2, crate: 'pallet_timestamp', enums: timestampEnums(b, t) },
    { name: 'Balances', index: 5, crate: 'pallet_balances', enums: balancesEnums(b, t) },
    { name: 'TransactionPayment', index: 6, crate: 'pallet_transaction_payment', enums: transactionPaymentEnums(b, t) },
    { name: 'SubtensorModule', index: 7, crate: 'pallet_subtensor', enums: subtensorEnums(b, t, kind) },
    { name: 'Drand', index: 26, crate: 'pallet_drand', enums: drandEnums(b, t) },
  ];
  const pick = (kind: keyof PalletEnums, rust: string) =>
    enums.map((p) => ({ name: p.name, index: p.index, type: p.enums[kind], typeName: `${p.crate}::${rust}<Runtime>` }));
  const callType = outerEnum(b, 'RuntimeCall', pick('calls', 'Call'));
  const eventType = outerEnum(b, 'RuntimeEvent', pick('events', 'Event'));
  const errorType = outerEnum(b, 'RuntimeError', pick('errors', 'Error'));
  const byName = (name: string): PalletEnums => enums.find((p) => p.name === name)?.enums ?? {};
  const timestamp = byName('Timestamp');
  if (timestamp.calls === undefined) throw new Error('Timestamp declares a call enum');
  const pallets = [
    systemPallet(b, t, byName('System'), eventType, runtimeVersionOf(kind, specVersion)),
    timestampPallet(b, t, { calls: timestamp.calls }),
    balancesPallet(b, t, byName('Balances')),
    transactionPaymentPallet(b, t, byName('TransactionPayment')),
    subtensorPallet(b, t, byName('SubtensorModule'), kind),
    drandPallet(b, t, byName('Drand')),
  ];
  const extrinsic = declareExtrinsic(b, t, callType);
  const apis = declareRuntimeApis(b, t, extrinsic);
  return { types: b.types(), pallets, extrinsic, apis, runtimeType: t.runtime, outerEnums: { callType, eventType, errorType } };
}

/**
 * Encode a declared runtime as SCALE `RuntimeMetadataPrefixed` (V15): constants and storage defaults
 * are encoded from their JS values through a registry that knows the declared types.
 *
 * @param decl - The runtime declaration.
 * @returns `"meta"` ‖ `0x0f` ‖ `RuntimeMetadataV15`.
 * @example
 * const bytes = encodeRuntimeMetadata(declareRuntime());
 */
export function encodeRuntimeMetadata(decl: RuntimeDecl): Uint8Array {
  const registry = new TypeRegistry();
  const lookup = registry.createType<PortableRegistry>('PortableRegistry', { types: decl.types });
  registry.setLookup(lookup);
  // Hex, not Uint8Array: a Uint8Array handed to `Bytes` is read as length-prefixed.
  const encode = (type: number, value: unknown): `0x${string}` =>
    u8aToHex(registry.createTypeUnsafe(registry.createLookupType(type), value === undefined ? [] : [value]).toU8a());

  const pallets = decl.pallets.map((p) => ({
    name: p.name,
    storage:
      p.storage.length === 0
        ? null
        : {
            prefix: p.name,
            items: p.storage.map((s) => ({
              name: s.name,
              modifier: s.modifier,
              type: 'plain' in s.type ? { Plain: s.type.plain } : { Map: s.type.map },
              fallback: s.modifier === 'Optional' ? '0x00' : encode('plain' in s.type ? s.type.plain : s.type.map.value, s.fallback),
              docs: s.docs,
            })),
          },
    calls: p.calls === undefined ? null : { type: p.calls },
    events: p.events === undefined ? null : { type: p.events },
    constants: p.constants.map((c) => ({ name: c.name, type: c.type, value: encode(c.type, c.value), docs: c.docs })),
    errors: p.errors === undefined ? null : { type: p.errors },
    index: p.index,
    docs: p.docs,
  }));
  const { extrinsic } = decl;
  const v15 = registry.createType('MetadataV15', {
    lookup,
    pallets,
    extrinsic: {
      version: extrinsic.version,
      addressType: extrinsic.addressType,
      callType: extrinsic.callType,
      signatureType: extrinsic.signatureType,
      extraType: extrinsic.extraType,
      signedExtensions: extrinsic.signedExtensions,
    },
    type: decl.runtimeType,
    apis: decl.apis,
    outerEnums: decl.outerEnums,
    custom: { map: {} },
  });
  return u8aConcat(MAGIC, new Uint8Array([METADATA_VERSION]), v15.toU8a());
}

const cached = new Map<string, Uint8Array>();

/**
 * Build the devnet's runtime metadata: SCALE `RuntimeMetadataPrefixed` (magic `"meta"`, version 15)
 * describing `System`, `Timestamp`, `Balances`, `TransactionPayment`, `SubtensorModule` and `Drand`
 * with Subtensor's real pallet / call / event / error indices, argument types and storage hashers,
 * the real transaction-extension list and the runtime APIs the devnet serves. Built from hand-written
 * declarations on first call, then cached; every call returns a fresh copy.
 *
 * @param kind - `stateful` (default: Subtensor main) or `legacy` (finney spec 393, see {@link declareRuntime})
 * @param specVersion - the spec version of the `System.Version` constant instead of the kind's own
 * @returns The metadata bytes, the value of `state_getMetadata` (hex-encode it for JSON-RPC).
 * @example
 * const hex = u8aToHex(buildMetadata()); // "0x6d657461 0f ..."
 */
export function buildMetadata(kind: DevnetRuntimeKind = 'stateful', specVersion?: number): Uint8Array {
  const key = `${kind}:${runtimeVersionOf(kind, specVersion).specVersion}`;
  let bytes = cached.get(key);
  if (bytes === undefined) {
    bytes = encodeRuntimeMetadata(declareRuntime(kind, specVersion));
    cached.set(key, bytes);
  }
  return bytes.slice();
}
