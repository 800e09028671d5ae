/** The machine a benchmark ran on: CPU model, cores, Node.js, Python and numpy (versions and executable), the load average and the time. */
export declare function machineLine(): string;

/** What a Python peer returned: its output (checked against ours before timing) and nanoseconds per call. */
export interface PeerResult {
  readonly absent?: undefined;
  readonly output: unknown;
  readonly nsPerOp: number;
  readonly peakRssKb: number;
  /** Per-round figures when measured by {@link comparePeer}. */
  readonly rounds?: readonly number[];
}
/** A peer that could not run (no python3, no numpy, a crash), with the reason. */
export interface PeerAbsent {
  readonly absent: string;
}

/**
 * Runs `script` (a Python file whose `peer(input)` function is the replica, plus optional `prepare(input)`
 * that builds the value `peer` receives) through the harness: the input is handed over as JSON, the
 * peer's output of the first call is returned for comparison, then calls are timed for about `seconds`.
 */
export declare function runPythonPeer(options: { script: string; input: unknown; seconds?: number; needs?: readonly string[] }): PeerResult | PeerAbsent;

/** Times `fn` in this process for about `seconds` of `clock` (wall, the default, or this process's CPU time) after a warm-up; returns nanoseconds per call. */
export declare function timeOurs(fn: () => unknown, seconds?: number, clock?: 'wall' | 'cpu'): number;

/** One row of a peer comparison. */
export interface RatioRow {
  readonly name: string;
  readonly peer: PeerResult | PeerAbsent;
  readonly oursNsPerOp: number;
  /** What one call does, for the table (e.g. "1 group of 5 x 20"). */
  readonly unit?: string;
  /** Our per-round figures when measured by {@link comparePeer}. */
  readonly oursRounds?: readonly number[];
  /** The median of the per-round ratios peer / ours. */
  readonly medianRatio?: number;
}

/** Prints the machine, then a table: row, peer time, our time, and the ratio peer/ours (> 1: we are faster). */
export declare function printRatioTable(title: string, rows: readonly RatioRow[]): void;

/** The load average (1, 5, 15 minutes), one decimal each. */
export declare function loadLine(): string;

/**
 * One comparison measured under shared load: the peer's output goes to `check` first (throw when it differs
 * from ours: nothing is timed then), then `rounds` rounds alternate a peer round and one of ours of `seconds`
 * each. Each side's figure is its fastest round; `medianRatio` is the median of the per-round ratios.
 */
export declare function comparePeer(options: {
  name: string;
  unit?: string;
  script: string;
  input: unknown;
  ours: () => unknown;
  check: (peerOutput: unknown) => void;
  needs?: readonly string[];
  rounds?: number;
  seconds?: number;
}): RatioRow;

/** A process's peak resident set (VmHWM, KiB) from /proc, or null where /proc is missing. */
export declare function peakRssKb(pid?: number): number | null;

/**
 * Samples a process and its descendants every `intervalMs` until `stop()`, in KiB (null where /proc is
 * missing): bounds on the tree's peak (`treePeakKb`, the larger of the largest sampled sum of resident sets
 * and the largest single peak; `treeUpperKb`, the sum of each process's own peak, VmHWM), the largest single
 * process peak, and how many descendants were seen.
 */
export declare function sampleTreeRss(
  rootPid?: number,
  intervalMs?: number,
): { stop(): { treePeakKb: number | null; treeUpperKb: number | null; processPeakKb: number | null; descendants: number } };

/** KiB as "12.3 MiB", or "n/a" for null. */
export declare function formatKb(kb: number | null | undefined): string;
/** Runs a package's `bench/peers.mjs` in plain Node when every `built` dist file exists (else says what to build); throws when it fails. */
export declare function runPeerScript(script: string, built: readonly string[], packages: string): void;
