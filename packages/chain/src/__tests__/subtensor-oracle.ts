/**
 * A block-by-block reference of Subtensor's epoch and reveal rules on the two runtimes, written from the
 * opentensor/subtensor source (legacy: ab0cb2e52 = finney spec 393; stateful: 14bc6f9f9 = main). It imports
 * nothing from `src/`: tests use it as the oracle the client's closed forms are checked against.
 */

/** Epoch state of one subnet after a block (stateful fields unused on the legacy runtime). */
export interface OracleState {
  readonly block: bigint;
  readonly subnetEpochIndex: bigint;
  readonly lastEpochBlock: bigint;
  readonly blocksSinceLastStep: bigint;
}

export interface OracleSubnet {
  readonly runtime: 'legacy' | 'stateful';
  readonly netuid: number;
  readonly tempo: number;
  readonly revealPeriod: bigint;
}

const MAX_TEMPO = 50_400n;

/** legacy `get_epoch_index` (weights.rs:1254): u64 arithmetic on the plain netuid. */
function legacyEpoch(s: OracleSubnet, b: bigint): bigint {
  return (b + BigInt(s.netuid) + 1n) / (BigInt(s.tempo) + 1n);
}

/** legacy `blocks_until_next_epoch(..) == 0` (run_coinbase.rs:931, 946). */
function legacyShouldRun(s: OracleSubnet, b: bigint): boolean {
  if (s.tempo === 0) return false;
  const t = BigInt(s.tempo);
  const remainder = (b + BigInt(s.netuid) + 1n) % (t + 1n);
  return t - remainder === 0n;
}

/** stateful `should_run_epoch` (main run_coinbase.rs:1085) on the given stored values. */
function statefulShouldRun(s: OracleSubnet, st: OracleState, b: bigint): boolean {
  if (s.tempo === 0) return false;
  if (st.blocksSinceLastStep > MAX_TEMPO) return true;
  return b - st.lastEpochBlock >= BigInt(s.tempo);
}

/** Runs the subnet from genesis (all zero) and returns the state after every block 0..until. */
export function simulate(s: OracleSubnet, until: bigint): OracleState[] {
  const out: OracleState[] = [{ block: 0n, subnetEpochIndex: 0n, lastEpochBlock: 0n, blocksSinceLastStep: 0n }];
  let st = out[0]!;
  for (let b = 1n; b <= until; b += 1n) {
    let since = st.blocksSinceLastStep + 1n; // drain_pending raises it first (main run_coinbase.rs:363)
    let index = st.subnetEpochIndex;
    let last = st.lastEpochBlock;
    const fires = s.runtime === 'legacy' ? legacyShouldRun(s, b) : statefulShouldRun(s, { ...st, blocksSinceLastStep: since }, b);
    if (fires) {
      since = 0n;
      if (s.runtime === 'stateful') {
        index += 1n;
        last = b;
      }
    }
    st = { block: b, subnetEpochIndex: index, lastEpochBlock: last, blocksSinceLastStep: since };
    out.push(st);
  }
  return out;
}

/** The epoch an extrinsic in block b sees (after b's on_initialize): stateful look-ahead or legacy with should_run. */
function timelockCommitEpoch(s: OracleSubnet, states: readonly OracleState[], b: bigint): bigint {
  if (s.runtime === 'legacy') return legacyEpoch(s, b) + (legacyShouldRun(s, b) ? 1n : 0n); // weights.rs:342
  const st = states[Number(b)]!;
  return st.subnetEpochIndex + (statefulShouldRun(s, st, b) ? 1n : 0n); // weights.rs:1275
}

/** The epoch the timelocked reveal step of block b works in (it runs before run_coinbase, on the previous block's state). */
function revealStepEpoch(s: OracleSubnet, states: readonly OracleState[], b: bigint): bigint {
  if (s.runtime === 'legacy') return legacyEpoch(s, b); // reveal_commits.rs:42
  const prev = states[Number(b - 1n)]!;
  return prev.subnetEpochIndex + (statefulShouldRun(s, prev, b) ? 1n : 0n); // main reveal_commits.rs:43
}

/**
 * A timelocked commit included in block c: its `TimelockedWeightCommits` epoch key and the first block whose
 * reveal step takes that queue (`reveal_epoch = cur - RevealPeriodEpochs`, nothing before `cur >= period`).
 */
export function timelockReveal(s: OracleSubnet, states: readonly OracleState[], c: bigint): { key: bigint; revealBlock: bigint | null } {
  const key = timelockCommitEpoch(s, states, c);
  for (let b = c + 1n; b < BigInt(states.length); b += 1n) {
    const cur = revealStepEpoch(s, states, b);
    if (cur >= s.revealPeriod && cur - s.revealPeriod === key) return { key, revealBlock: b };
  }
  return { key, revealBlock: null };
}

/**
 * A commit-reveal v2 commit included in block c: field 1 of its `WeightCommits` tuple (legacy: the block,
 * weights.rs:120; stateful: the look-ahead epoch, main weights.rs:100-124) and the blocks in which
 * `is_reveal_block_range` accepts its reveal.
 */
export function v2Reveal(s: OracleSubnet, states: readonly OracleState[], c: bigint): { field1: bigint; blocks: bigint[] } {
  const field1 = s.runtime === 'legacy' ? c : timelockCommitEpoch(s, states, c);
  const commitEpoch = s.runtime === 'legacy' ? legacyEpoch(s, c) : field1;
  const blocks: bigint[] = [];
  for (let b = c + 1n; b < BigInt(states.length); b += 1n) {
    const cur = s.runtime === 'legacy' ? legacyEpoch(s, b) : timelockCommitEpoch(s, states, b);
    if (cur === commitEpoch + s.revealPeriod) blocks.push(b);
  }
  return { field1, blocks };
}
