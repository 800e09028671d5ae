import type { CallBase, AnyTuple, Codec } from '@polkadot/types/types';

import type { DevnetCall } from './devnet-call.js';

const num = (c: Codec | undefined): number => Number(c?.toString() ?? '0');
const big = (c: Codec | undefined): bigint => BigInt(c?.toString() ?? '0');
const list = (c: Codec | undefined): Codec[] => (c === undefined ? [] : [...(c as unknown as Iterable<Codec>)]);
const nums = (c: Codec | undefined): number[] => list(c).map(num);
const hexOf = (c: Codec | undefined): string => c?.toHex() ?? '0x';

/**
 * Maps a decoded runtime call to the devnet's call model, or `null` when the devnet does not execute it.
 * Arguments are read by position, as the metadata orders them.
 *
 * @param call - the decoded call
 * @returns the devnet call or `null`
 * @example
 * decodeDevnetCall(extrinsic.method);
 */
export function decodeDevnetCall(call: CallBase<AnyTuple>): DevnetCall | null {
  const a = call.args;
  const section = call.section;
  const method = call.method;
  if (section === 'system') {
    if (method === 'remark' || method === 'remarkWithEvent') {
      return { kind: 'remark', withEvent: method === 'remarkWithEvent', remark: hexOf(a[0]) };
    }
    return null;
  }
  if (section !== 'subtensorModule') return null;
  switch (method) {
    case 'setWeights':
      return { kind: 'set_weights', netuid: num(a[0]), mecid: 0, uids: nums(a[1]), values: nums(a[2]), versionKey: big(a[3]), mechanism: false };
    case 'setMechanismWeights':
      return {
        kind: 'set_weights',
        netuid: num(a[0]),
        mecid: num(a[1]),
        uids: nums(a[2]),
        values: nums(a[3]),
        versionKey: big(a[4]),
        mechanism: true,
      };
    case 'batchSetWeights':
      return {
        kind: 'batch_set_weights',
        netuids: nums(a[0]),
        weights: list(a[1]).map((row) => list(row).map((pair) => nums(pair) as [number, number])),
        versionKeys: list(a[2]).map(big),
      };
    case 'commitWeights':
      return { kind: 'commit_weights', netuid: num(a[0]), mecid: 0, hash: hexOf(a[1]), mechanism: false };
    case 'commitMechanismWeights':
      return { kind: 'commit_weights', netuid: num(a[0]), mecid: num(a[1]), hash: hexOf(a[2]), mechanism: true };
    case 'batchCommitWeights':
      return { kind: 'batch_commit_weights', netuids: nums(a[0]), hashes: list(a[1]).map(hexOf) };
    case 'revealWeights':
      return {
        kind: 'reveal_weights',
        netuid: num(a[0]),
        mecid: 0,
        uids: nums(a[1]),
        values: nums(a[2]),
        salt: nums(a[3]),
        versionKey: big(a[4]),
        mechanism: false,
      };
    case 'revealMechanismWeights':
      return {
        kind: 'reveal_weights',
        netuid: num(a[0]),
        mecid: num(a[1]),
        uids: nums(a[2]),
        values: nums(a[3]),
        salt: nums(a[4]),
        versionKey: big(a[5]),
        mechanism: true,
      };
    case 'batchRevealWeights':
      return {
        kind: 'batch_reveal_weights',
        netuid: num(a[0]),
        uidsList: list(a[1]).map(nums),
        valuesList: list(a[2]).map(nums),
        saltsList: list(a[3]).map(nums),
        versionKeys: list(a[4]).map(big),
      };
    case 'commitTimelockedWeights':
      return {
        kind: 'commit_timelocked_weights',
        netuid: num(a[0]),
        mecid: 0,
        commit: hexOf(a[1]),
        revealRound: big(a[2]),
        version: num(a[3]),
        mechanism: false,
      };
    case 'commitTimelockedMechanismWeights':
      return {
        kind: 'commit_timelocked_weights',
        netuid: num(a[0]),
        mecid: num(a[1]),
        commit: hexOf(a[2]),
        revealRound: big(a[3]),
        version: num(a[4]),
        mechanism: true,
      };
    case 'commitCrv3MechanismWeights':
      // ab0cb2e52 dispatches.rs:514: do_commit_timelocked_mechanism_weights with version 4
      return {
        kind: 'commit_timelocked_weights',
        netuid: num(a[0]),
        mecid: num(a[1]),
        commit: hexOf(a[2]),
        revealRound: big(a[3]),
        version: 4,
        mechanism: true,
      };
    case 'serveAxon':
      return {
        kind: 'serve_axon',
        netuid: num(a[0]),
        version: num(a[1]),
        ip: big(a[2]),
        port: num(a[3]),
        ipType: num(a[4]),
        protocol: num(a[5]),
        placeholder1: num(a[6]),
        placeholder2: num(a[7]),
      };
    default:
      return null;
  }
}
