import type { ChainState, SubnetState } from './chain-state.js';

const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;

/** `proportion / u64::MAX` as U96F32 raw bits (32 fraction bits, truncated). */
function fraction(proportion: bigint): bigint {
  return (proportion << 32n) / U64_MAX;
}

/** `initial - sum(initial x child share) + sum(parent amount x parent share)`, U96F32, truncated to u64. */
function inherit(initial: bigint, toChildren: readonly bigint[], fromParents: readonly [bigint, bigint][]): bigint {
  const given = toChildren.reduce((acc, p) => acc + initial * fraction(p), 0n);
  const taken = fromParents.reduce((acc, [amount, p]) => acc + amount * fraction(p), 0n);
  const start = initial << 32n;
  const value = ((start > given ? start - given : 0n) + taken) >> 32n;
  return value > U64_MAX ? U64_MAX : value;
}

/**
 * The devnet's `get_stake_weights_for_hotkey_on_subnet` (opentensor/subtensor ab0cb2e52
 * `pallets/subtensor/src/staking/stake_utils.rs:133`, the same on main): inherited alpha (own alpha minus the
 * children's shares plus the parents' shares, `:309`) plus inherited root TAO (`:241`) times
 * `TaoWeight / u64::MAX`, floored (the chain's I64F64 compared with the integer `StakeThreshold`).
 *
 * @param state - the chain state
 * @param subnet - the subnet
 * @param hotkey - the hotkey (hex)
 * @returns the stake weight in rao
 * @example stakeWeightOf(state, subnet, alice)
 */
export function stakeWeightOf(state: ChainState, subnet: SubnetState, hotkey: string): bigint {
  const own = (h: string) => subnet.neurons.find((n) => n.hotkey === h);
  const children = (subnet.childKeys.get(hotkey) ?? []).map(([p]) => p);
  const parents = subnet.parentKeys.get(hotkey) ?? [];
  const alpha = inherit(
    own(hotkey)?.stake ?? 0n,
    children,
    parents.map(([p, parent]) => [own(parent)?.stake ?? 0n, p]),
  );
  const tao = inherit(
    own(hotkey)?.rootStake ?? 0n,
    children,
    parents.map(([p, parent]) => [own(parent)?.rootStake ?? 0n, p]),
  );
  const total = ((alpha << 32n) + tao * fraction(state.taoWeight)) >> 32n;
  return total > I64_MAX ? I64_MAX : total;
}
