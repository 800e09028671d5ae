import type { Extrinsic } from '@polkadot/types/interfaces';
import { hexToU8a, u8aToHex } from '@polkadot/util';
import { blake2AsU8a, decodeAddress, signatureVerify } from '@polkadot/util-crypto';

import type { PoolEntry } from './chain-types.js';
import type { ChainStore } from './chain-store.js';
import { bestBlock, hashAt, nonceOf } from './chain-store.js';
import { decodeDevnetCall } from './decode-call.js';
import { mortalBirth } from './mortal-era.js';
import { poolGuard } from './pool-guard.js';
import type { JsonRpcErrorObject } from './rpc-errors.js';
import { POOL_ERRORS, RpcFailure } from './rpc-errors.js';

/** A pool entry as validation produces it (watchers and arrival are added when it is pooled). */
export type ValidatedExtrinsic = Omit<PoolEntry, 'watchers' | 'arrival' | 'lost'>;

/**
 * Full pool validation of an extrinsic against the best block, as `validate_transaction` at best + 1: format,
 * signed, era and signature (over the birth block's hash), a call the devnet executes, the commit size, nonce,
 * duplicates and then the runtime's pool guard.
 *
 * @param store - the chain store
 * @param hex - the extrinsic
 * @returns the validated entry (without watchers and arrival)
 * @throws RpcFailure with the node's pool error
 * @example
 * const v = validateExtrinsic(store, hex);
 */
export function validateExtrinsic(store: ChainStore, hex: string): ValidatedExtrinsic {
  const { ctx, pool, poolByHash, hashCache, genesisHash } = store;
  const { registry } = ctx;
  const specVersion = ctx.runtime.runtimeVersion.specVersion;
  const transactionVersion = ctx.runtime.runtimeVersion.transactionVersion;
  const fail = (rpc: JsonRpcErrorObject): never => {
    throw new RpcFailure(rpc);
  };
  let ext: Extrinsic;
  let bytes: Uint8Array;
  try {
    bytes = hexToU8a(hex);
    ext = registry.createType('Extrinsic', bytes);
    if (ext.toU8a().length !== bytes.length) throw new Error('trailing bytes');
  } catch (e) {
    return fail(POOL_ERRORS.badFormat(e instanceof Error ? e.message : String(e)));
  }
  if (!ext.isSigned) return fail(POOL_ERRORS.noUnsignedValidator);
  const head = bestBlock(store);
  const current = head.number + 1;
  const signer = u8aToHex(decodeAddress(ext.signer.toString()));
  const era = ext.era;
  let mortal: { period: number; phase: number } | null = null;
  let birth = 0;
  let birthHash = genesisHash;
  if (era.isMortalEra) {
    const m = era.asMortalEra;
    mortal = { period: m.period.toNumber(), phase: m.phase.toNumber() };
    birth = mortalBirth(mortal.period, mortal.phase, current);
    if (birth > current) return fail(POOL_ERRORS.ancientBirthBlock);
    birthHash = hashAt(store, birth);
  }
  const sig = ext.signature;
  const mode = ext.mode.toNumber();
  const payloadFor = (blockHash: string): Uint8Array => {
    const payload = registry.createType(
      'ExtrinsicPayload',
      {
        method: ext.method.toHex(),
        era: ext.era,
        nonce: ext.nonce,
        tip: ext.tip,
        mode,
        metadataHash: null,
        specVersion,
        transactionVersion,
        genesisHash,
        blockHash,
      },
      { version: ext.version & 0x7f },
    );
    const u8a = payload.toU8a({ method: true });
    return u8a.length > 256 ? blake2AsU8a(u8a, 256) : u8a;
  };
  const verifies = (blockHash: string): boolean => mode === 0 && signatureVerify(payloadFor(blockHash), sig.toU8a(), hexToU8a(signer)).isValid;
  if (!verifies(birthHash)) {
    if (mortal !== null) {
      for (let b = birth - mortal.period; b >= 0 && b >= birth - 64 * mortal.period; b -= mortal.period) {
        if (hashCache.has(b) && verifies(hashAt(store, b))) return fail(POOL_ERRORS.ancientBirthBlock);
      }
    }
    return fail(POOL_ERRORS.badProof);
  }
  const call = decodeDevnetCall(ext.method);
  if (call === null) return fail(POOL_ERRORS.call);
  // `commit: BoundedVec<u8, ConstU32<5000>>`: a longer commit does not decode on chain
  if (call.kind === 'commit_timelocked_weights' && (call.commit.length - 2) / 2 > 5000)
    return fail(POOL_ERRORS.badFormat('commit exceeds BoundedVec<u8, 5000>'));
  const nonce = ext.nonce.toNumber();
  if (nonce < nonceOf(head.state, signer)) return fail(POOL_ERRORS.stale);
  const hash = u8aToHex(blake2AsU8a(bytes, 256));
  if (poolByHash.has(hash)) return fail(POOL_ERRORS.alreadyImported);
  if (pool.some((p) => p.signer === signer && p.nonce === nonce)) return fail(POOL_ERRORS.priorityTooLow);
  const custom = poolGuard(head.state, BigInt(current), signer, call);
  if (custom !== null) return fail(POOL_ERRORS.custom(custom));
  return { hash, hex, signer, nonce, call, mortal, birth };
}
