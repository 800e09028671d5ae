/** What an axon knows about a caller from its metagraph. */
export interface CallerInfo {
  readonly validatorPermit: boolean;
  /** Stake in rao; the default priority. */
  readonly stake: bigint;
}

/** A blacklist decision: `[true, reason]` refuses with 403 `Forbidden. Key is blacklisted: {reason}.` */
export type BlacklistDecision = readonly [blacklisted: boolean, reason: string];

/**
 * The subnet template's blacklist (`neurons/miner.py:98-127` of opentensor/bittensor-subnet-template): no hotkey →
 * `Missing dendrite or hotkey`; not in the metagraph → `Unrecognized hotkey` (the template's intent; its code
 * answers 500 there by accident); without a validator permit when required → `Non-validator hotkey`; below a
 * minimum stake → `Insufficient stake`.
 *
 * @param hotkey - the claimed dendrite hotkey (unverified, as in the SDK, which blacklists before verifying)
 * @param caller - the metagraph entry, or `undefined` when not registered
 * @param rules - `requireValidatorPermit`, `minStake`
 * @returns the decision
 * @example defaultBlacklist(hotkey, metagraph.get(hotkey), { requireValidatorPermit: true })
 */
export function defaultBlacklist(
  hotkey: string | null,
  caller: CallerInfo | undefined,
  rules: { readonly requireValidatorPermit?: boolean; readonly minStake?: bigint } = {},
): BlacklistDecision {
  if (hotkey === null) return [true, 'Missing dendrite or hotkey'];
  if (caller === undefined) return [true, 'Unrecognized hotkey'];
  if (rules.requireValidatorPermit === true && !caller.validatorPermit) return [true, 'Non-validator hotkey'];
  if (rules.minStake !== undefined && caller.stake < rules.minStake) return [true, 'Insufficient stake'];
  return [false, 'Hotkey recognized!'];
}
