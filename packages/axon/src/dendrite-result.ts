import type { Synapse } from './synapse.js';
import type { TerminalInfo } from './terminal-info.js';

/**
 * Whether a dendrite call succeeded, timed out, was blacklisted or failed verification, as the SDK's
 * `is_success` (200), `is_timeout` (408), `is_blacklist` (403), `failed_verification` (401) read
 * `synapse.dendrite.status_code` (`bittensor/core/synapse.py:518-581`).
 *
 * @param synapse - a synapse returned by a dendrite
 * @returns the four flags
 * @example if (callOutcome(s).isSuccess) score(s)
 */
export function callOutcome(synapse: Synapse): {
  readonly isSuccess: boolean;
  readonly isTimeout: boolean;
  readonly isBlacklist: boolean;
  readonly failedVerification: boolean;
} {
  const code = synapse.dendrite.statusCode;
  return Object.freeze({ isSuccess: code === 200, isTimeout: code === 408, isBlacklist: code === 403, failedVerification: code === 401 });
}

/** Internal: overlays the non-null fields of a partial terminal. */
export function overlayTerminal(base: TerminalInfo, over: Partial<TerminalInfo>): TerminalInfo {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) if (v !== null) out[k] = v;
  return Object.freeze(out) as unknown as TerminalInfo;
}
