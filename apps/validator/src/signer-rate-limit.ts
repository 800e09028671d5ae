/** The verdict of {@link SignerRateLimiter.take}. */
export type RateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/** Per-signer token buckets of the signed endpoints. */
export interface SignerRateLimiter {
  /** Takes one token from the signer's bucket. */
  take(hotkey: string): RateVerdict;
  /** Buckets held (bounded: full buckets are forgotten). */
  size(): number;
}

/**
 * Creates per-signer token buckets: each signer may send `burst` requests at once and `perMinute` per
 * minute on average. Buckets live in a `Map` keyed by hotkey (keys are data); a bucket that refilled
 * completely is forgotten, so memory follows the signers active in the last minute.
 *
 * @param options - rate per minute, burst, clock (ms)
 * @returns the limiter
 * @example const limiter = createSignerRateLimiter({ perMinute: 120, burst: 30 }); if (!limiter.take(hotkey).ok) reply 429
 */
export function createSignerRateLimiter(options: { readonly perMinute: number; readonly burst: number; readonly now?: () => number }): SignerRateLimiter {
  const now = options.now ?? (() => Date.now());
  const perMs = options.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = now();
  const level = (b: { tokens: number; at: number }, t: number): number => Math.min(options.burst, b.tokens + (t - b.at) * perMs);
  const sweep = (t: number): void => {
    if (t - lastSweep < 60_000) return;
    lastSweep = t;
    for (const [key, b] of buckets) if (level(b, t) >= options.burst) buckets.delete(key);
  };
  return {
    take: (hotkey) => {
      const t = now();
      sweep(t);
      const b = buckets.get(hotkey) ?? { tokens: options.burst, at: t };
      const tokens = level(b, t);
      if (tokens < 1) {
        buckets.set(hotkey, { tokens, at: t });
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
      }
      buckets.set(hotkey, { tokens: tokens - 1, at: t });
      return { ok: true };
    },
    size: () => buckets.size,
  };
}
