/**
 * Conformance of the devnet's legacy runtime metadata with the real finney metadata (spec 393, V16), a
 * public-chain-data fixture inside the repository (`fixtures/finney-spec393-metadata.scale`), so these
 * tests always run. The stateful runtime differs from it only by the three epoch items (pinned below).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Metadata, TypeRegistry } from '@polkadot/types';
import { expandMetadata } from '@polkadot/types/metadata/decorate';
import type { DecoratedMeta } from '@polkadot/types/metadata/decorate/types';
import type { MetadataLatest } from '@polkadot/types/interfaces';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevnetRegistry, DEVNET_SIGNED_EXTENSIONS, RUNTIME_VERSION, STATEFUL_RUNTIME_VERSION } from '../metadata/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const FINNEY_PATH = resolve(here, 'fixtures/finney-spec393-metadata.scale');

interface Side {
  readonly registry: TypeRegistry;
  readonly metadata: Metadata;
  readonly decorated: DecoratedMeta;
  readonly latest: MetadataLatest;
}

function side(registry: TypeRegistry, metadata: Metadata): Side {
  return { registry, metadata, decorated: expandMetadata(registry, metadata), latest: metadata.asLatest };
}

let devnet: Side;
let stateful: Side;
let finney: Side;
let alice: string;
let bob: string;

beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  alice = keyring.addFromUri('//Alice').address;
  bob = keyring.addFromUri('//Bob').address;
  const d = createDevnetRegistry('legacy');
  devnet = side(d.registry, d.metadata);
  const st = createDevnetRegistry('stateful');
  stateful = side(st.registry, st.metadata);
  {
    const registry = new TypeRegistry();
    const metadata = new Metadata(registry, new Uint8Array(readFileSync(FINNEY_PATH)));
    registry.setMetadata(metadata, undefined, DEVNET_SIGNED_EXTENSIONS);
    finney = side(registry, metadata);
  }
});

/**
 * A structural rendering of a lookup type that ignores type ids (and generated lookup names). The outer
 * runtime enums render as their path only: the devnet declares a subset of finney's pallets, and each
 * pallet's call / event / error enum is compared on its own.
 */
function shape(s: Side, id: number, depth = 0): string {
  if (depth > 12) return '…';
  const t = s.registry.lookup.getSiType(id);
  const path = t.path.map((p) => p.toString()).join('::');
  const def = t.def;
  if (/^node_subtensor_runtime::Runtime(Call|Event|Error)$/.test(path)) return path;
  const sub = (x: { toNumber(): number }) => shape(s, x.toNumber(), depth + 1);
  if (def.isPrimitive) return def.asPrimitive.type;
  if (def.isCompact) return `Compact<${sub(def.asCompact.type)}>`;
  if (def.isSequence) return `Vec<${sub(def.asSequence.type)}>`;
  if (def.isArray) return `[${sub(def.asArray.type)};${def.asArray.len.toNumber()}]`;
  if (def.isTuple) return `(${def.asTuple.map(sub).join(',')})`;
  if (def.isComposite) return `${path}{${def.asComposite.fields.map((f) => `${f.name.unwrapOr('').toString()}:${sub(f.type)}`).join(',')}}`;
  if (def.isVariant) {
    return `${path}<${def.asVariant.variants
      .map((v) => `${v.index.toNumber()}:${v.name.toString()}(${v.fields.map((f) => `${f.name.unwrapOr('').toString()}:${sub(f.type)}`).join(',')})`)
      .join('|')}>`;
  }
  return def.type;
}

function pallet(s: Side, name: string) {
  const p = s.latest.pallets.find((x) => x.name.toString() === name);
  if (p === undefined) throw new Error(`pallet ${name} missing`);
  return p;
}

function variants(s: Side, palletName: string, kind: 'calls' | 'events' | 'errors') {
  const p = pallet(s, palletName);
  const type = p[kind].unwrap().type.toNumber();
  return s.registry.lookup.getSiType(type).def.asVariant.variants;
}

/** Weights calls with sample arguments (positional, in the call's argument order). */
const WEIGHTS_CALLS: readonly (readonly [string, readonly unknown[]])[] = [
  ['setWeights', [1, [0, 1, 2], [65535, 32768, 1], 10002000n]],
  ['setMechanismWeights', [4095, 1, [7, 300], [1, 65535], 2n ** 64n - 1n]],
  [
    'batchSetWeights',
    [
      [1, 2, 300],
      [
        [
          [0, 65535],
          [1, 2],
        ],
        [],
        [[70, 16384]],
      ],
      [0, 5, 2n ** 40n],
    ],
  ],
  ['commitWeights', [1, `0x${'ab'.repeat(32)}`]],
  ['commitMechanismWeights', [12, 3, `0x${'cd'.repeat(32)}`]],
  ['revealWeights', [1, [0, 1], [65535, 1], [18, 179, 107, 0, 165, 211, 141, 197], 7n]],
  ['revealMechanismWeights', [2, 1, [0], [65535], [1, 2, 3, 4, 5, 6, 7, 8], 0n]],
  ['commitTimelockedWeights', [1, `0x${'01'.repeat(300)}`, 12_345_678n, 4]],
  ['commitTimelockedMechanismWeights', [1, 1, `0x${'ff'.repeat(64)}`, 1n, 4]],
  [
    'batchCommitWeights',
    [
      [1, 2],
      [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`],
    ],
  ],
  ['batchRevealWeights', [1, [[0], [1, 2]], [[65535], [1, 2]], [[9], [8, 7]], [1n, 2n]]],
];

describe(`metadata conformance with finney spec 393`, () => {
  it(`every weights call encodes to identical bytes with both metadatas`, () => {
    for (const [name, args] of WEIGHTS_CALLS) {
      const ours = devnet.decorated.tx.subtensorModule?.[name];
      const theirs = finney.decorated.tx.subtensorModule?.[name];
      expect(ours, name).toBeDefined();
      expect(theirs, name).toBeDefined();
      const a = u8aToHex(ours!(...args).toU8a());
      const b = u8aToHex(theirs!(...args).toU8a());
      expect(a, name).toBe(b);
      expect(a.slice(0, 4), name).toBe('0x07');
    }
  });

  it(`property: random weights-call arguments encode to identical bytes with both metadatas`, () => {
    const u16 = fc.integer({ min: 0, max: 65535 });
    const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    const vecU16 = fc.array(u16, { maxLength: 70 });
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => u8aToHex(b));
    const call = fc.oneof(
      fc.tuple(fc.constant('setWeights'), fc.tuple(u16, vecU16, vecU16, u64)),
      fc.tuple(fc.constant('setMechanismWeights'), fc.tuple(u16, fc.integer({ min: 0, max: 255 }), vecU16, vecU16, u64)),
      fc.tuple(fc.constant('revealWeights'), fc.tuple(u16, vecU16, vecU16, vecU16, u64)),
      fc.tuple(fc.constant('commitWeights'), fc.tuple(u16, hash)),
      fc.tuple(
        fc.constant('commitTimelockedWeights'),
        fc.tuple(
          u16,
          fc.uint8Array({ maxLength: 600 }).map((b) => u8aToHex(b)),
          u64,
          u16,
        ),
      ),
      fc.tuple(
        fc.constant('batchSetWeights'),
        fc
          .array(fc.tuple(u16, fc.array(fc.tuple(u16, u16), { maxLength: 5 }), u64), { maxLength: 4 })
          .map((items) => [items.map(([n]) => n), items.map(([, w]) => w), items.map(([, , v]) => v)]),
      ),
    );
    fc.assert(
      fc.property(call, ([name, args]) => {
        const a = u8aToHex(devnet.decorated.tx.subtensorModule![name]!(...(args as unknown[])).toU8a());
        const b = u8aToHex(finney.decorated.tx.subtensorModule![name]!(...(args as unknown[])).toU8a());
        expect(a).toBe(b);
      }),
      { numRuns: 150 },
    );
  });

  it(`property: random keys of the weights storage items are byte-identical with both metadatas`, () => {
    const entry = (s: Side, item: string) => s.decorated.query.subtensorModule![item]!;
    const u16 = fc.integer({ min: 0, max: 65535 });
    const account = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => u8aToHex(b));
    const key = fc.oneof(
      fc.tuple(fc.constant('weights'), fc.tuple(u16, u16)),
      fc.tuple(fc.constant('lastUpdate'), fc.tuple(u16)),
      fc.tuple(fc.constant('uids'), fc.tuple(u16, account)),
      fc.tuple(fc.constant('keys'), fc.tuple(u16, u16)),
      fc.tuple(fc.constant('weightCommits'), fc.tuple(u16, account)),
      fc.tuple(fc.constant('timelockedWeightCommits'), fc.tuple(u16, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))),
      fc.tuple(fc.constant('totalHotkeyAlpha'), fc.tuple(account, u16)),
      fc.tuple(fc.constant('revealPeriodEpochs'), fc.tuple(u16)),
    );
    fc.assert(
      fc.property(key, ([item, args]) => {
        expect(u8aToHex(entry(devnet, item)(...args))).toBe(u8aToHex(entry(finney, item)(...args)));
      }),
      { numRuns: 150 },
    );
  });

  it(`every declared SubtensorModule call has finney's index, name, argument names and types`, () => {
    const theirs = new Map(variants(finney, 'SubtensorModule', 'calls').map((v) => [v.index.toNumber(), v]));
    const ours = variants(devnet, 'SubtensorModule', 'calls');
    expect(ours.length).toBeGreaterThanOrEqual(9);
    for (const v of ours) {
      const f = theirs.get(v.index.toNumber());
      expect(f?.name.toString(), v.name.toString()).toBe(v.name.toString());
      expect(v.fields.map((x) => `${x.name.toString()}:${shape(devnet, x.type.toNumber())}`)).toEqual(
        f!.fields.map((x) => `${x.name.toString()}:${shape(finney, x.type.toNumber())}`),
      );
    }
  });

  it(`every declared call of every pallet matches finney's variant`, () => {
    for (const p of devnet.latest.pallets) {
      if (p.calls.isNone) continue;
      const name = p.name.toString();
      expect(pallet(finney, name).index.toNumber(), name).toBe(p.index.toNumber());
      const theirs = new Map(variants(finney, name, 'calls').map((v) => [v.index.toNumber(), v]));
      for (const v of variants(devnet, name, 'calls')) {
        const f = theirs.get(v.index.toNumber());
        expect(f?.name.toString(), `${name}.${v.name.toString()}`).toBe(v.name.toString());
        expect(v.fields.map((x) => shape(devnet, x.type.toNumber()))).toEqual(f!.fields.map((x) => shape(finney, x.type.toNumber())));
      }
    }
  });

  it(`every storage key the client reads is byte-identical, with the same modifier, default and value type`, () => {
    const u16s = [0, 1, 4097, 65535];
    const sample = (s: Side, typeId: number): unknown[] => {
      const t = shape(s, typeId);
      if (t === 'U16') return u16s;
      if (t === 'U32') return [0, 1000, 2 ** 32 - 1];
      if (t === 'U64') return [0n, 12_345n, 2n ** 64n - 1n];
      if (t.startsWith('sp_core::crypto::AccountId32')) return [alice, bob];
      if (t.startsWith('primitive_types::H256')) return [`0x${'42'.repeat(32)}`];
      throw new Error(`no sample for key type ${t}`);
    };
    let checked = 0;
    for (const p of devnet.latest.pallets) {
      const name = p.name.toString();
      if (p.storage.isNone) continue;
      const theirPallet = pallet(finney, name);
      for (const item of p.storage.unwrap().items) {
        const itemName = item.name.toString();
        const theirItem = theirPallet.storage.unwrap().items.find((x) => x.name.toString() === itemName);
        expect(theirItem, `${name}.${itemName} is in finney spec 393`).toBeDefined();
        if (theirItem === undefined) continue;
        expect(item.modifier.toString(), `${name}.${itemName} modifier`).toBe(theirItem.modifier.toString());
        expect(item.fallback.toHex(), `${name}.${itemName} default`).toBe(theirItem.fallback.toHex());
        const ourType = item.type;
        const theirType = theirItem.type;
        expect(ourType.type, `${name}.${itemName} kind`).toBe(theirType.type);
        if (ourType.isPlain) {
          expect(shape(devnet, ourType.asPlain.toNumber()), `${name}.${itemName} value`).toBe(shape(finney, theirType.asPlain.toNumber()));
          const a = devnet.decorated.query[p.name.toString().replace(/^./, (c) => c.toLowerCase())];
          expect(a).toBeDefined();
        } else {
          const om = ourType.asMap;
          const tm = theirType.asMap;
          expect(
            om.hashers.map((h) => h.toString()),
            `${name}.${itemName} hashers`,
          ).toEqual(tm.hashers.map((h) => h.toString()));
          expect(shape(devnet, om.value.toNumber()), `${name}.${itemName} value`).toBe(shape(finney, tm.value.toNumber()));
        }
        // Keys: every combination of sample keys (first two samples per key for N-maps).
        const ourEntry = Object.values(devnet.decorated.query)
          .flatMap((q) => Object.values(q))
          .find((e) => e.prefix === name && e.meta.name.toString() === itemName)!;
        const theirEntry = Object.values(finney.decorated.query)
          .flatMap((q) => Object.values(q))
          .find((e) => e.prefix === name && e.meta.name.toString() === itemName)!;
        let argSets: unknown[][] = [[]];
        if (ourType.isMap) {
          const keyId = ourType.asMap.key.toNumber();
          const keyDef = devnet.registry.lookup.getSiType(keyId).def;
          const keyTypes = ourType.asMap.hashers.length === 1 ? [keyId] : keyDef.asTuple.map((k) => k.toNumber());
          for (const k of keyTypes) {
            const values = sample(devnet, k).slice(0, keyTypes.length === 1 ? undefined : 2);
            argSets = argSets.flatMap((prefix) => values.map((v) => [...prefix, v]));
          }
        }
        for (const args of argSets) {
          expect(u8aToHex(ourEntry(...args)), `${name}.${itemName}(${String(args)})`).toBe(u8aToHex(theirEntry(...args)));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it(`the outer RuntimeCall / RuntimeEvent / RuntimeError enums place each pallet at finney's index`, () => {
    for (const key of ['callType', 'eventType', 'errorType'] as const) {
      const outer = (s: Side) => s.registry.lookup.getSiType(s.latest.outerEnums[key].toNumber());
      const theirs = new Map(outer(finney).def.asVariant.variants.map((v) => [v.name.toString(), v.index.toNumber()]));
      const ours = outer(devnet).def.asVariant.variants;
      expect(outer(devnet).path.map(String), key).toEqual(outer(finney).path.map(String));
      expect(ours.length, key).toBeGreaterThanOrEqual(4);
      for (const v of ours) expect(theirs.get(v.name.toString()), `${key} ${v.name.toString()}`).toBe(v.index.toNumber());
    }
  });

  it(`every declared event has finney's index, name and field types`, () => {
    for (const p of devnet.latest.pallets) {
      if (p.events.isNone) continue;
      const name = p.name.toString();
      const theirs = new Map(variants(finney, name, 'events').map((v) => [v.name.toString(), v]));
      for (const v of variants(devnet, name, 'events')) {
        const f = theirs.get(v.name.toString());
        expect(f?.index.toNumber(), `${name}.${v.name.toString()} index`).toBe(v.index.toNumber());
        expect(
          v.fields.map((x) => shape(devnet, x.type.toNumber())),
          `${name}.${v.name.toString()} fields`,
        ).toEqual(f!.fields.map((x) => shape(finney, x.type.toNumber())));
      }
    }
  });

  it(`every pallet declares all of finney's error names in finney's order`, () => {
    for (const p of devnet.latest.pallets) {
      if (p.errors.isNone) continue;
      const name = p.name.toString();
      const ours = variants(devnet, name, 'errors').map((v) => `${v.index.toNumber()}:${v.name.toString()}`);
      const theirs = variants(finney, name, 'errors').map((v) => `${v.index.toNumber()}:${v.name.toString()}`);
      expect(ours, name).toEqual(theirs);
    }
    expect(variants(devnet, 'SubtensorModule', 'errors').length).toBe(135);
  });

  it(`event and error indices resolve identically by name through both registries`, () => {
    for (const [section, method] of [
      ['subtensorModule', 'WeightsSet'],
      ['subtensorModule', 'WeightsCommitted'],
      ['subtensorModule', 'WeightsRevealed'],
      ['subtensorModule', 'TimelockedWeightsCommitted'],
      ['subtensorModule', 'TimelockedWeightsRevealed'],
      ['subtensorModule', 'BatchWeightItemFailed'],
      ['system', 'ExtrinsicSuccess'],
      ['system', 'ExtrinsicFailed'],
    ] as const) {
      const a = devnet.decorated.events[section]?.[method];
      const b = finney.decorated.events[section]?.[method];
      expect(a?.meta.index.toNumber(), method).toBe(b?.meta.index.toNumber());
    }
    for (const error of ['SettingWeightsTooFast', 'IncorrectWeightVersionKey', 'NeuronNoValidatorPermit', 'RevealTooEarly', 'CommittingWeightsTooFast']) {
      expect(devnet.decorated.errors.subtensorModule?.[error]?.meta.index.toNumber(), error).toBe(
        finney.decorated.errors.subtensorModule?.[error]?.meta.index.toNumber(),
      );
    }
  });

  it(`the transaction extensions are finney's, in finney's order, with the same types`, () => {
    // Read the devnet side as V15 (`additionalSigned`): @polkadot/types 16.5.6 drops it when converting
    // V15 to V16 (it spells the target field `implict`), so `asLatest` would show type 0 for all of them.
    const ours = devnet.metadata.asV15.extrinsic.signedExtensions.map(
      (e) => `${e.identifier.toString()}:${shape(devnet, e.type.toNumber())}:${shape(devnet, e.additionalSigned.toNumber())}`,
    );
    const theirs = finney.latest.extrinsic.transactionExtensions.map(
      (e) => `${e.identifier.toString()}:${shape(finney, e.type.toNumber())}:${shape(finney, e.implicit.toNumber())}`,
    );
    expect(ours).toEqual(theirs);
    for (const key of ['addressType', 'callType', 'signatureType'] as const) {
      const a = shape(devnet, devnet.latest.extrinsic[key].toNumber());
      const b = shape(finney, finney.latest.extrinsic[key].toNumber());
      expect(a, key).toBe(b);
    }
  });

  it(`a set_weights signing payload and unsigned body are byte-identical with both metadatas`, () => {
    const payload = {
      address: alice,
      blockHash: `0x${'12'.repeat(32)}`,
      blockNumber: 1000,
      era: devnet.registry.createType('ExtrinsicEra', { current: 1000, period: 64 }).toHex(),
      genesisHash: `0x${'34'.repeat(32)}`,
      method: '',
      nonce: 7,
      specVersion: 393,
      tip: 0,
      transactionVersion: 1,
      version: 4,
      mode: 0,
    };
    const encode = (s: Side) => {
      const method = s.decorated.tx.subtensorModule!.setWeights!(1, [0, 1], [65535, 1], 5n).toHex();
      const p = s.registry.createType('ExtrinsicPayload', { ...payload, method }, { version: 4 });
      return u8aToHex(p.toU8a({ method: true }));
    };
    expect(encode(devnet)).toBe(encode(finney));
  });

  it(`the constants the devnet shares with finney have finney's values`, () => {
    for (const p of devnet.latest.pallets) {
      const theirs = pallet(finney, p.name.toString());
      for (const c of p.constants) {
        const name = `${p.name.toString()}.${c.name.toString()}`;
        const f = theirs.constants.find((x) => x.name.toString() === c.name.toString());
        expect(f, name).toBeDefined();
        expect(shape(devnet, c.type.toNumber()), name).toBe(shape(finney, f!.type.toNumber()));
        if (name === 'System.Version') continue; // apis differ by design (the devnet declares fewer runtime APIs)
        expect(c.value.toHex(), name).toBe(f!.value.toHex());
      }
    }
    const version = devnet.decorated.consts.system?.version?.toJSON() as Record<string, unknown>;
    const finneyVersion = finney.decorated.consts.system?.version?.toJSON() as Record<string, unknown>;
    for (const key of ['specName', 'implName', 'authoringVersion', 'specVersion', 'implVersion', 'transactionVersion', 'systemVersion']) {
      expect(version[key], key).toEqual(finneyVersion[key]);
    }
    expect(version.specVersion).toBe(RUNTIME_VERSION.specVersion);
  });

  it('the stateful runtime differs from the legacy one by exactly LastEpochBlock, PendingEpochAt, SubnetEpochIndex and its spec version', () => {
    const items = (s: Side) =>
      new Set(
        pallet(s, 'SubtensorModule')
          .storage.unwrap()
          .items.map((i) => i.name.toString()),
      );
    const legacy = items(devnet);
    const extra = [...items(stateful)].filter((n) => !legacy.has(n)).sort();
    expect(extra).toEqual(['LastEpochBlock', 'PendingEpochAt', 'SubnetEpochIndex']);
    expect((stateful.decorated.consts.system?.version?.toJSON() as { specVersion: number }).specVersion).toBe(STATEFUL_RUNTIME_VERSION.specVersion);
    expect(STATEFUL_RUNTIME_VERSION.specVersion).not.toBe(RUNTIME_VERSION.specVersion);
  });

  it(`the runtime API methods the devnet declares have finney's signatures`, () => {
    const finneyApis = new Map(finney.latest.apis.map((a) => [a.name.toString(), a]));
    for (const api of devnet.latest.apis) {
      const name = api.name.toString();
      const f = finneyApis.get(name);
      expect(f, name).toBeDefined();
      for (const m of api.methods) {
        const fm = f!.methods.find((x) => x.name.toString() === m.name.toString());
        if (fm === undefined) {
          // Subtensor main only (not at spec 393).
          expect(`${name}.${m.name.toString()}`).toBe('SubnetInfoRuntimeApi.get_next_epoch_start_block');
          continue;
        }
        expect(
          m.inputs.map((i) => `${i.name.toString()}:${shape(devnet, i.type.toNumber())}`),
          `${name}.${m.name.toString()}`,
        ).toEqual(fm.inputs.map((i) => `${i.name.toString()}:${shape(finney, i.type.toNumber())}`));
        expect(shape(devnet, m.output.toNumber()), `${name}.${m.name.toString()} output`).toBe(shape(finney, fm.output.toNumber()));
      }
    }
  });
});
