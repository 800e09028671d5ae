/** Runs at most `limit` tasks at once; the others wait in arrival order. */
export interface Limiter {
  /** Runs `task` when a slot is free; resolves or rejects with it. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  active(): number;
}

/**
 * Creates a concurrency limiter (bounded concurrency for axon queries).
 *
 * @param limit - most tasks running at once (>= 1)
 * @returns the limiter
 * @example const limiter = createLimiter(16); await Promise.all(targets.map((t) => limiter.run(() => query(t))))
 */
export function createLimiter(limit: number): Limiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    running -= 1;
    const next = waiting.shift();
    if (next !== undefined) {
      running += 1;
      next();
    }
  };
  return {
    run: async <T>(task: () => Promise<T>): Promise<T> => {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    active: () => running,
  };
}
