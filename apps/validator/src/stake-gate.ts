import type { ChainNeuron, ChainView } from './chain-port.js';

/** rao as alpha with up to 9 decimals, no trailing zeros (`1000`, `0.5`). */
function alpha(rao: bigint): string {
  const whole = rao / 1_000_000_000n;
  const frac = (rao % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole.toString()}.${frac}`;
}

/**
 * Whether the chain takes weights from this neuron as far as its stake goes, as `@subnet/chain`'s preflight judges
 * it: a stake weight below `StakeThreshold` is refused (`NotEnoughStakeToSetWeights`), except the owner hotkey's on a
 * runtime that exempts it. Nothing is said when the chain access does not read the threshold.
 *
 * @param view - the metagraph (its `stakeThreshold`, `ownerStakeExempt`, `ownerHotkey`)
 * @param self - this validator's neuron
 * @returns null when the stake suffices (or cannot be judged), else the numbers and a sentence
 * @example const low = stakeBelowThreshold(view, neuron); if (low !== null) logger.warn(low.numbers, low.sentence)
 */
export function stakeBelowThreshold(
  view: Pick<ChainView, 'stakeThreshold' | 'ownerStakeExempt' | 'ownerHotkey'>,
  self: ChainNeuron,
): { readonly sentence: string; readonly numbers: { readonly stake: string; readonly stake_threshold: string } } | null {
  const threshold = view.stakeThreshold;
  if (threshold === undefined || self.stake >= threshold) return null;
  if (isExemptOwner(view, self)) return null;
  return {
    sentence: `hotkey ${self.hotkey} (uid ${self.uid}) has a stake weight of ${alpha(self.stake)} α, below the subnet's StakeThreshold of ${alpha(threshold)} α: the chain refuses its weights (NotEnoughStakeToSetWeights)`,
    numbers: { stake: self.stake.toString(), stake_threshold: threshold.toString() },
  };
}

/**
 * Whether this neuron is the subnet owner's hotkey on a runtime that exempts it (stateful epochs, or `node-subtensor`
 * from spec 397: opentensor/subtensor `e7f05a051`, bringing `69627c0d5`; docs/spec.md G.33): the chain then takes its
 * weights whatever its stake and without a validator permit (`lib.rs:2752`, `subnets/weights.rs:1163` at 14bc6f9f9;
 * `@subnet/chain`'s preflight decides the same from the same runtime version; not on finney spec 393).
 *
 * @param view - the metagraph's `ownerStakeExempt` (the runtime exempts the owner) and `ownerHotkey`
 * @param self - this validator's neuron
 * @returns whether the owner exemption applies
 * @example if (!neuron.validatorPermit && !isExemptOwner(view, neuron)) warn()
 */
export function isExemptOwner(view: Pick<ChainView, 'ownerStakeExempt' | 'ownerHotkey'>, self: ChainNeuron): boolean {
  return view.ownerStakeExempt === true && typeof view.ownerHotkey === 'string' && view.ownerHotkey === self.hotkey;
}
