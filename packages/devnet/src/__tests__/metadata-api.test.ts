/**
 * An unmodified @polkadot/api ApiPromise initialises from the devnet metadata (through an in-memory
 * provider that answers only the init calls), decorates consts / query / tx / call from it, and signs an
 * extrinsic that the devnet registry decodes and verifies.
 */
import { ApiPromise } from '@polkadot/api';
import type { ApiOptions } from '@polkadot/api/types';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, signatureVerify } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAIN_PROPERTIES,
  createDevnetRegistry,
  DEVNET_SIGNED_EXTENSIONS,
  encodeMetadataAtVersion,
  encodeMetadataVersions,
  PALLET_INDEX,
  STATEFUL_RUNTIME_VERSION as RUNTIME_VERSION,
  storageKey,
} from '../metadata/index.js';

const GENESIS = `0x${'11'.repeat(32)}`;
const HEAD = `0x${'22'.repeat(32)}`;

type Provider = NonNullable<ApiOptions['provider']>;

/** The smallest provider @polkadot/api initialises against: answers the init RPCs from the devnet metadata. */
function initOnlyProvider(calls: string[]): Provider {
  const answer = (method: string, params: unknown[]): unknown => {
    calls.push(method);
    switch (method) {
      case 'rpc_methods':
        return { methods: [] };
      case 'chain_getBlockHash':
        return params[0] === 0 ? GENESIS : HEAD;
      case 'state_getRuntimeVersion':
        return RUNTIME_VERSION;
      case 'system_chain':
        return 'Subtensor devnet';
      case 'system_properties':
        return CHAIN_PROPERTIES;
      case 'state_call': {
        const [name, data] = params as [string, string];
        if (name === 'Metadata_metadata_versions') return u8aToHex(encodeMetadataVersions());
        if (name === 'Metadata_metadata_at_version') return u8aToHex(encodeMetadataAtVersion(parseInt(data.slice(2, 4), 16)));
        throw new Error(`unexpected state_call ${name}`);
      }
      default:
        throw new Error(`unexpected RPC ${method}`);
    }
  };
  const provider = {
    hasSubscriptions: true,
    isClonable: false,
    isConnected: true,
    clone: () => provider,
    connect: () => Promise.resolve(),
    disconnect: () => Promise.resolve(),
    on: (type: string, cb: () => void) => {
      if (type === 'connected') {
        setTimeout(cb, 0);
      }
      return () => undefined;
    },
    send: (method: string, params: unknown[]) => Promise.resolve().then(() => answer(method, params)),
    subscribe: (_type: string, method: string, _params: unknown[], cb: (e: Error | null, r: unknown) => void) => {
      calls.push(method);
      if (method === 'state_subscribeRuntimeVersion') {
        setTimeout(() => {
          cb(null, RUNTIME_VERSION);
        }, 0);
      }
      return Promise.resolve(1);
    },
    unsubscribe: () => Promise.resolve(true),
  };
  return provider as unknown as Provider;
}

let api: ApiPromise;
const rpcCalls: string[] = [];

beforeAll(async () => {
  await cryptoWaitReady();
  api = await ApiPromise.create({ provider: initOnlyProvider(rpcCalls), signedExtensions: DEVNET_SIGNED_EXTENSIONS, noInitWarn: true, throwOnConnect: true });
});

afterAll(async () => {
  await api.disconnect();
});

describe('@polkadot/api on the devnet metadata', () => {
  it('loads the V15 metadata through Metadata_metadata_at_version and reports the stateful spec 425', () => {
    expect(rpcCalls).toContain('state_call');
    expect(api.runtimeMetadata.version).toBe(15);
    expect(api.runtimeVersion.specVersion.toNumber()).toBe(425);
    expect(api.runtimeVersion.specName.toString()).toBe('node-subtensor');
  });

  it('reads System constants: SS58Prefix 42, BlockHashCount 2400, Version', () => {
    expect(api.consts.system?.ss58Prefix?.toString()).toBe('42');
    expect(api.consts.system?.blockHashCount?.toString()).toBe('2400');
    expect((api.consts.system?.version?.toJSON() as { specVersion: number }).specVersion).toBe(425);
    expect(api.registry.chainSS58).toBe(42);
  });

  it('builds SubtensorModule.set_weights with call index [7, 0]', () => {
    const tx = api.tx.subtensorModule?.setWeights?.(1, [0, 1], [65535, 1], 5);
    expect(tx?.method.toHex().slice(0, 6)).toBe('0x0700');
    expect(tx?.method.section).toBe('subtensorModule');
  });

  it('storage keys from api.query equal storageKey() from the devnet registry', () => {
    const { registry } = createDevnetRegistry();
    const apiKey = api.query.subtensorModule?.weights?.key(4097, 3);
    expect(apiKey).toBe(u8aToHex(storageKey(registry, 'SubtensorModule', 'Weights', [4097, 3])));
  });

  it('decorates api.call.subnetInfoRuntimeApi.getNextEpochStartBlock and api.call.accountNonceApi.accountNonce', () => {
    expect(typeof api.call.subnetInfoRuntimeApi?.getNextEpochStartBlock).toBe('function');
    expect(typeof api.call.accountNonceApi?.accountNonce).toBe('function');
    expect(typeof api.call.metadata?.metadataAtVersion).toBe('function');
  });

  it('a signed set_weights from the api decodes with the devnet registry and its signature verifies over the payload', async () => {
    const alice = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice');
    const tx = api.tx.subtensorModule!.setWeights!(1, [0, 1], [65535, 1], 5);
    const era = api.registry.createType('ExtrinsicEra', { current: 100, period: 64 });
    await tx.signAsync(alice, { nonce: 3, era, blockHash: HEAD });
    const { registry } = createDevnetRegistry();
    const xt = registry.createType('Extrinsic', tx.toHex());
    expect(xt.isSigned).toBe(true);
    expect(xt.signer.toString()).toBe(alice.address);
    expect(xt.nonce.toNumber()).toBe(3);
    expect(xt.method.callIndex).toEqual(new Uint8Array([PALLET_INDEX.SubtensorModule, 0]));
    const payload = registry.createType(
      'ExtrinsicPayload',
      {
        method: xt.method.toHex(),
        era: xt.era,
        nonce: xt.nonce,
        tip: xt.tip,
        mode: 0,
        specVersion: RUNTIME_VERSION.specVersion,
        transactionVersion: RUNTIME_VERSION.transactionVersion,
        genesisHash: GENESIS,
        blockHash: HEAD,
      },
      { version: 4 },
    );
    const signed = payload.toU8a({ method: true });
    const message = signed.length > 256 ? registry.hash(signed) : signed;
    expect(signatureVerify(message, xt.signature, alice.address).isValid).toBe(true);
    // and the same payload with another genesis does not verify
    const other = registry.createType('ExtrinsicPayload', { ...payload.toJSON(), genesisHash: `0x${'33'.repeat(32)}` }, { version: 4 });
    expect(signatureVerify(other.toU8a({ method: true }), xt.signature, alice.address).isValid).toBe(false);
  });
});
