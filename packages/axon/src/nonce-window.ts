/** The SDK constants (`bittensor/utils/axon_utils.py:3-4`, `bittensor/core/axon.py:53`). */
export const NONCE_RULES = Object.freeze({ allowedDeltaNs: 4_000_000_000n, versionWithWindow: 7_002_000 });

/**
 * Python's `f"{x:.2f}"` for a finite double: the exact binary value rounded half to even. JS `toFixed(2)`
 * rounds an exact tie away from zero (`4.125` → `4.13`, Python `4.12`); a double is such a tie exactly when
 * `8x` is an odd integer.
 */
export function pyFixed2(x: number): string {
  const eighths = x * 8;
  if (!Number.isInteger(eighths) || Math.abs(eighths % 2) !== 1) return x.toFixed(2);
  let hundredths = Math.floor(Math.abs(x) * 100);
  if (hundredths % 2 === 1) hundredths += 1;
  return `${x < 0 ? '-' : ''}${(hundredths / 100).toFixed(2)}`;
}

/** The decision on a nonce. */
export type NonceDecision = { readonly accepted: true } | { readonly accepted: false; readonly message: string };

/**
 * The SDK axon's nonce rules (`default_verify`, `bittensor/core/axon.py:933-983`; `bittensor/utils/axon_utils.py`):
 * a nonce is required; with version ≥ 7002000 a first-seen `hotkey:uuid` must be newer than
 * `now − 4 s − timeout` (computed in float as Python does), a seen one newer than the last accepted; below that
 * version only the monotonic rule applies. No upper bound. Messages follow "Not Verified with error: ".
 *
 * @param input - axon time (ns), the request's timeout (s) and version, its nonce, the last accepted nonce for its key
 * @returns accepted, or the SDK's message
 * @example checkNonce({ nowNs, timeout: 12, version: 10002000, nonce, last: undefined })
 */
export function checkNonce(input: {
  readonly nowNs: bigint;
  readonly timeout: number | null;
  readonly version: number | null;
  readonly nonce: bigint | null;
  readonly last: bigint | undefined;
}): NonceDecision {
  const { nowNs, timeout, version, nonce, last } = input;
  if (nonce === null) return { accepted: false, message: 'Missing Nonce' };
  const stale = { accepted: false, message: 'Nonce is too old, a newer one was last processed' } as const;
  if (version !== null && version >= NONCE_RULES.versionWithWindow) {
    if (last === undefined) {
      const base = nowNs - NONCE_RULES.allowedDeltaNs;
      const tooOld = timeout === null || timeout === 0 ? nonce <= base : nonce <= Number(base) - timeout * 1e9;
      if (tooOld) {
        const diff = Number(nowNs - nonce) / 1e9;
        const allowed = (Number(NONCE_RULES.allowedDeltaNs) + (timeout ?? 0) * 1e9) / 1e9;
        return {
          accepted: false,
          message: `Nonce is too old: acceptable delta is ${pyFixed2(allowed)} seconds but request was ${pyFixed2(diff)} seconds old`,
        };
      }
      return { accepted: true };
    }
    return nonce <= last ? stale : { accepted: true };
  }
  return last !== undefined && nonce <= last ? stale : { accepted: true };
}
