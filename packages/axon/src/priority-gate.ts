/** A concurrency limit whose waiting list is served highest priority first (the SDK's priority thread pool). */
export interface PriorityGate {
  /** Waits for a slot; resolves with its release function. */
  enter(priority: number): Promise<() => void>;
}

/**
 * Creates a priority gate: at most `slots` holders; waiters are admitted by descending priority, then arrival.
 *
 * @param slots - concurrent holders
 * @returns the gate
 * @example const release = await gate.enter(stake); try { await forward() } finally { release() }
 */
export function createPriorityGate(slots: number): PriorityGate {
  let busy = 0;
  let seq = 0;
  const waiting: { priority: number; seq: number; admit: () => void }[] = [];
  const release = (): void => {
    busy--;
    waiting.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
    const next = waiting.shift();
    if (next !== undefined) {
      busy++;
      next.admit();
    }
  };
  return {
    enter: (priority) =>
      new Promise((resolve) => {
        const admit = (): void => {
          let released = false;
          resolve(() => {
            if (!released) {
              released = true;
              release();
            }
          });
        };
        if (busy < slots) {
          busy++;
          admit();
        } else waiting.push({ priority: Number.isFinite(priority) ? priority : 0, seq: seq++, admit });
      }),
  };
}
