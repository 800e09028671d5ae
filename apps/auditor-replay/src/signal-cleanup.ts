/** The signals a user's Ctrl-C or a service manager's stop sends. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Listens for SIGINT and SIGTERM while a file is half written, for the signals nobody else listens to: the CLI's
 * case, where the signal would end the process at once. A program that embeds this package and handles a signal
 * itself keeps its own handling: it is not sent the signal a second time, and its write goes on.
 *
 * @param onSignal - called with the signal (it cleans up, then usually calls {@link endBySignal})
 * @returns stops listening (call it once the file is whole or gone)
 * @example const stop = takeStopSignals((s) => { unlinkSync(tmp); endBySignal(s); }); try { await write() } finally { stop() }
 */
export function takeStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  const taken = STOP_SIGNALS.filter((signal) => process.listenerCount(signal) === 0);
  for (const signal of taken) process.on(signal, onSignal);
  return () => {
    for (const signal of taken) process.removeListener(signal, onSignal);
  };
}

/**
 * Ends the process as `signal` would have (exit status 130 for SIGINT, 143 for SIGTERM), once the listener that
 * took it is removed: with no listener left, the signal's default action applies.
 *
 * @param signal - the signal received
 * @param stop - what {@link takeStopSignals} returned
 */
export function endBySignal(signal: NodeJS.Signals, stop: () => void): void {
  stop();
  process.kill(process.pid, signal);
}
