/** The machine a benchmark ran on: CPU model, cores, Node.js and (when present) Python and numpy versions. */
export declare function machineLine(): string;

/** What a Python peer returned: its output (checked against ours before timing) and nanoseconds per call. */
export interface PeerResult {
  readonly absent?: undefined;
  readonly output: unknown;
  readonly nsPerOp: number;
  readonly peakRssKb: number;
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

/** Times `fn` in this process for about `seconds` after a warm-up; returns nanoseconds per call. */
export declare function timeOurs(fn: () => unknown, seconds?: number): number;

/** One row of a peer comparison. */
export interface RatioRow {
  readonly name: string;
  readonly peer: PeerResult | PeerAbsent;
  readonly oursNsPerOp: number;
  /** What one call does, for the table (e.g. "1 group of 5 x 20"). */
  readonly unit?: string;
}

/** Prints the machine, then a table: row, peer time, our time, and the ratio peer/ours (> 1: we are faster). */
export declare function printRatioTable(title: string, rows: readonly RatioRow[]): void;
