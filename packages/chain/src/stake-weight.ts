/** One parent or child link of `ParentKeys` / `ChildKeys`: proportion (u64, of u64::MAX) and the other hotkey's stakes. */
export interface StakeLink {
  /** The proportion, as stored: `proportion / u64::MAX` of the parent's stake. */
  readonly proportion: bigint;
  /** The parent's `TotalHotkeyAlpha[(parent, netuid)]` (unused for children). */
  readonly alpha: bigint;
  /** The parent's `TotalHotkeyAlpha[(parent, 0)]`, its root TAO (unused for children). */
  readonly rootTao: bigint;
}

/** What the stake weight of one hotkey on one subnet is made of, all read at one block. */
export interface StakeWeightInput {
  /** `TotalHotkeyAlpha[(hotkey, netuid)]`. */
  readonly alpha: bigint;
  /** `TotalHotkeyAlpha[(hotkey, 0)]`: the hotkey's root TAO. */
  readonly rootTao: bigint;
  /** `ParentKeys[(hotkey, netuid)]` with each parent's alpha and root TAO. */
  readonly parents: readonly StakeLink[];
  /** `ChildKeys[(hotkey, netuid)]` (only the proportions matter). */
  readonly children: readonly Pick<StakeLink, 'proportion'>[];
  /** `TaoWeight` (u64, of u64::MAX). */
  readonly taoWeight: bigint;
}

/** The chain's stake weight of one hotkey on a subnet and its parts (rao). */
export interface StakeWeight {
  /** Own alpha (`TotalHotkeyAlpha[(hotkey, netuid)]`). */
  readonly ownAlpha: bigint;
  /** Alpha after giving to children and inheriting from parents (`get_inherited_for_hotkey_on_subnet`). */
  readonly alpha: bigint;
  /** Own root TAO (`TotalHotkeyAlpha[(hotkey, 0)]`). */
  readonly ownTao: bigint;
  /** Root TAO after children and parents (`get_tao_inherited_for_hotkey_on_subnet`). */
  readonly tao: bigint;
  /** `TaoWeight` as stored (u64; the weight is `taoWeight / u64::MAX`). */
  readonly taoWeight: bigint;
  /** `alpha + tao x TaoWeight`, floored: what the chain compares with `StakeThreshold`. */
  readonly total: bigint;
}

const U64_MAX = (1n << 64n) - 1n;
const FRAC = 32n;
/** I64F64's largest integer part: the chain's I64F64 total saturates there. */
const I64_MAX = (1n << 63n) - 1n;

/** `U96F32::from_num(proportion).safe_div(U96F32::from_num(u64::MAX))` as raw bits (32 fraction bits, truncated). */
function normalized(proportion: bigint): bigint {
  return (proportion << FRAC) / U64_MAX;
}

/** `U96F32(amount) * U96F32(bits)` as raw bits, truncated (the fixed crate's unsigned multiply). */
function share(amount: bigint, bits: bigint): bigint {
  return amount * bits;
}

/**
 * The inherited amount (`get_inherited_for_hotkey_on_subnet` / `get_tao_inherited_for_hotkey_on_subnet`,
 * opentensor/subtensor ab0cb2e52 `pallets/subtensor/src/staking/stake_utils.rs:241-380`, unchanged on main
 * 14bc6f9f9 `:313-452`): in U96F32, `initial - sum(initial x p_child) + sum(parent x p_parent)` with
 * saturating subtraction, then truncated to u64.
 */
function inherited(initial: bigint, children: readonly bigint[], parents: readonly [bigint, bigint][]): bigint {
  const initialBits = initial << FRAC;
  let toChildren = 0n;
  for (const p of children) toChildren += share(initial, normalized(p));
  let fromParents = 0n;
  for (const [amount, p] of parents) fromParents += share(amount, normalized(p));
  const after = initialBits > toChildren ? initialBits - toChildren : 0n;
  const bits = after + fromParents;
  const value = bits >> FRAC;
  return value > U64_MAX ? U64_MAX : value;
}

/**
 * The chain's stake weight of a hotkey on a subnet (`get_stake_weights_for_hotkey_on_subnet`, ab0cb2e52
 * `stake_utils.rs:133`, main `:205`), which `check_weights_min_stake` compares with `StakeThreshold`
 * (ab0cb2e52 `lib.rs:2479`, `:2448` in finney's spec 393 build 79fcc6b4c, main `:2752`): inherited alpha (own alpha, minus what children take, plus the parents' alpha
 * shares) plus inherited root TAO (the same on the parents' root stake) times `TaoWeight / u64::MAX`.
 * Exact: the total is floored, so `total >= threshold` holds exactly when the chain's I64F64 comparison does.
 *
 * @param input - the hotkey's alpha and root TAO, its parents and children, `TaoWeight`
 * @returns the parts and the total
 * @example stakeWeight({ alpha: 0n, rootTao: 0n, parents: [{ proportion: 2n ** 64n - 1n, alpha: 5n, rootTao: 0n }], children: [], taoWeight: 0n }).total // 5n
 */
export function stakeWeight(input: StakeWeightInput): StakeWeight {
  const children = input.children.map((c) => c.proportion);
  const alpha = inherited(
    input.alpha,
    children,
    input.parents.map((p) => [p.alpha, p.proportion]),
  );
  const tao = inherited(
    input.rootTao,
    children,
    input.parents.map((p) => [p.rootTao, p.proportion]),
  );
  const weightBits = normalized(input.taoWeight); // U96F32 -> I64F64 is exact
  const totalBits = (alpha << FRAC) + tao * weightBits;
  const floored = totalBits >> FRAC;
  const total = floored > I64_MAX ? I64_MAX : floored;
  return Object.freeze({ ownAlpha: input.alpha, alpha, ownTao: input.rootTao, tao, taoWeight: input.taoWeight, total });
}
