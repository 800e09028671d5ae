import type { ChainView } from './chain-port.js';
import type { ValidatorConfig } from './config.js';
import type { RegisteredWalletHotkey } from './hotkey-departure.js';
import { walletHotkeySentence } from './hotkey-departure.js';
import { isExemptOwner, stakeBelowThreshold } from './stake-gate.js';

/** One start-up warning: a stable code, the numbers behind it and a sentence that says them. */
export interface StartupWarning {
  readonly code:
    | 'MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT'
    | 'ALPHA_SUM_BELOW_ONE'
    | 'CAP_CANNOT_HOLD'
    | 'EPOCH_LENGTH_NOT_TEMPO'
    | 'TEMPO_ZERO'
    | 'BURN_UID_NOT_IN_METAGRAPH'
    | 'BURN_UID_NOT_OWNER'
    | 'MIN_ALLOWED_WEIGHTS_ABOVE_ONE'
    | 'HOTKEY_NOT_REGISTERED'
    | 'HOTKEY_NO_VALIDATOR_PERMIT'
    | 'HOTKEY_STAKE_BELOW_THRESHOLD';
  readonly message: string;
  readonly numbers: Readonly<Record<string, number | string>>;
}

/**
 * Whether epochs of `length` blocks set weights once a chain epoch at `tempo`: the tempo (the default) or tempo + 1 (the
 * chain's own cycle, an epoch every tempo + 1 blocks: README "Decisions"); anything else sets them more or less often.
 * At tempo 0 (no chain epoch) only the 1-block epochs the tempo gives count as following it.
 *
 * @example followsTempo(361, 360) // true
 */
export function followsTempo(length: number, tempo: number): boolean {
  return length === tempo || length === tempo + 1;
}

/** A number of the wire-form pipeline (filled with its defaults by the configuration schema). */
function pipelineNumber(pipeline: Readonly<Record<string, unknown>>, key: string, fallback: number): number {
  const value = Object.hasOwn(pipeline, key) ? pipeline[key] : undefined;
  return typeof value === 'number' ? value : fallback;
}

const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;

/**
 * A share as the log's numbers give it: rounded to 12 decimal places, so a sum or product of α and caps shows
 * the decimal the operator configured (0.9 for 0.4 + 0.3 + 0.2, not 0.9000000000000001). Twelve places keep
 * every figure a configuration can mean; the binary remainder below them is arithmetic noise, not a share.
 */
const share = (x: number): number => Number(x.toFixed(12));

/**
 * Checks the scoring configuration against the chain and says, with numbers, where it would burn most of
 * the weight or misalign epochs: `min_validators` above the number of validators with stake (every
 * evaluation challenge then scores no miner, SPEC C.4, so its α burns), α summing below 1 (the rest burns,
 * SPEC C.7), a cap that cannot hold for the number of miners (n·cap < 1, the remainder burns, SPEC C.5),
 * an `epoch_length` other than the subnet's tempo, and a burn uid that no neuron holds (every vector that burns
 * names it and the chain refuses it) or that holds a neuron the chain pays (SPEC 0 "Burn uid", G.4), and a subnet
 * that refuses vectors of fewer than two uids, since the validator does not pad a short one (SPEC G.5); and first,
 * a hotkey that is not registered on the netuid or has no validator permit (unless a dry run), which the chain
 * refuses to take weights from.
 *
 * @param config - the validator configuration
 * @param view - the metagraph at start-up
 * @param self - this validator's hotkey (it counts as a validator)
 * @param recordedLength - with `chain.epoch_length` unset, the length the database numbers its epochs by (epoch-numbering.ts)
 * @param walletHotkeys - the other hotkeys of the validator's wallet registered on the netuid (named when its own is not)
 * @returns the warnings, empty when nothing is wrong
 * @example for (const w of startupWarnings(config, await chain.view(), chain.hotkey)) logger.warn({ code: w.code, ...w.numbers }, w.message)
 */
export function startupWarnings(
  config: ValidatorConfig,
  view: ChainView,
  self: string,
  recordedLength?: number,
  walletHotkeys: readonly RegisteredWalletHotkey[] = [],
): readonly StartupWarning[] {
  const warnings: StartupWarning[] = [...hotkeyWarnings(config, view, self, walletHotkeys)];
  const { challenges } = config.scoring;
  const pipeline = config.scoring.pipeline as Readonly<Record<string, unknown>>;
  const minValidators = pipelineNumber(pipeline, 'min_validators', 3);
  const pipelineCap = pipelineNumber(pipeline, 'weight_cap', 0.5);
  const burnUid = pipelineNumber(pipeline, 'burn_uid', 0);
  const validators = view.neurons.filter((n) => (n.validatorPermit || n.hotkey === self) && n.stake > 0n).length;
  const evaluation = challenges.filter((c) => c.kind !== 'bounty');
  const evaluationAlpha = evaluation.reduce((sum, c) => sum + c.alpha, 0);
  if (evaluation.length > 0 && minValidators > validators) {
    warnings.push({
      code: 'MIN_VALIDATORS_ABOVE_VALIDATOR_COUNT',
      message: `scoring.pipeline.min_validators is ${minValidators} but netuid ${config.netuid} has ${validators} validator(s) with stake: no miner can be scored in ${evaluation.map((c) => c.id).join(', ')}, so their α (${pct(evaluationAlpha)} of the weight) burns every epoch`,
      numbers: { min_validators: minValidators, validators, burned_share: share(evaluationAlpha) },
    });
  }
  const alphaSum = challenges.reduce((sum, c) => sum + c.alpha, 0);
  if (alphaSum < 1 - 1e-9) {
    warnings.push({
      code: 'ALPHA_SUM_BELOW_ONE',
      message: `the challenges' α sum to ${Math.round(alphaSum * 1e6) / 1e6}: ${pct(1 - alphaSum)} of the weight burns every epoch`,
      numbers: { alpha_sum: share(alphaSum), burned_share: share(1 - alphaSum) },
    });
  }
  const miners = view.neurons.filter((n) => !n.validatorPermit && n.hotkey !== self && n.uid !== burnUid).length;
  for (const c of challenges) {
    const cap = c.weight_cap ?? pipelineCap;
    if (miners * cap < 1 - 1e-9) {
      const burned = c.alpha * (1 - miners * cap);
      warnings.push({
        code: 'CAP_CANNOT_HOLD',
        message: `challenge ${c.id}: weight cap ${cap} with ${miners} miner(s) allocates at most ${pct(miners * cap)} of its share; ${pct(burned)} of the weight burns even when every miner is scored`,
        numbers: { challenge: c.id, cap, miners, burned_share: share(burned) },
      });
    }
  }
  const length = config.chain.epoch_length;
  if (view.tempo === 0) {
    // Neither runtime runs an epoch at tempo 0 (spec 393 `blocks_until_next_epoch` is u64::MAX, main's
    // `should_run_epoch` is false): no epoch length matches the chain's, and the weights move no emission.
    const here = length ?? recordedLength ?? 1;
    const epochs =
      length !== undefined
        ? `the epochs here are chain.epoch_length ${length} blocks`
        : here !== 1
          ? `the epochs here are ${here} blocks, the length this database numbers its epochs by`
          : 'with chain.epoch_length unset the epochs here are 1 block each, a submission every block (set chain.epoch_length)';
    warnings.push({
      code: 'TEMPO_ZERO',
      message: `netuid ${config.netuid} has tempo 0: the chain runs no epoch, so the weights set here move no emission; ${epochs}`,
      numbers: { tempo: 0, epoch_length: here },
    });
  } else if (length !== undefined && !followsTempo(length, view.tempo)) {
    warnings.push({
      code: 'EPOCH_LENGTH_NOT_TEMPO',
      message: `chain.epoch_length is ${length} blocks but the subnet's tempo is ${view.tempo} (the chain runs its epoch every ${view.tempo + 1} blocks): weights are set ${length < view.tempo ? 'more' : 'less'} often than the subnet's epoch`,
      numbers: { epoch_length: length, tempo: view.tempo },
    });
  }
  warnings.push(...burnUidWarnings(config, view, burnUid));
  const minAllowed = view.minAllowedWeights;
  const required = minAllowed === undefined ? 0 : Math.min(view.neurons.length, minAllowed);
  if (required > 1) {
    warnings.push({
      code: 'MIN_ALLOWED_WEIGHTS_ABOVE_ONE',
      message: `netuid ${config.netuid} refuses a weight vector naming fewer than ${required} uids (MinAllowedWeights ${minAllowed}, ${view.neurons.length} neurons): an epoch whose weights name fewer, as one that scores no miner does (the burn uid alone), fails with WeightVecLengthIsLow and sets nothing; the validator does not pad the vector with weight for unscored neurons`,
      numbers: { min_allowed_weights: minAllowed as number, required },
    });
  }
  return warnings;
}

/**
 * This validator's own hotkey against the metagraph, as `/readyz` judges it (readiness.ts): not registered on
 * the netuid, or registered without a validator permit, the chain refuses every epoch's weights
 * (`HotKeyNotRegisteredInSubNet`, `NeuronNoValidatorPermit`). Said at start-up, with the address, because
 * otherwise the first sign is the first close's failed preflight, up to an epoch (72 minutes at tempo 360)
 * later. Nothing in a dry run, which submits nothing.
 */
function hotkeyWarnings(config: ValidatorConfig, view: ChainView, self: string, walletHotkeys: readonly RegisteredWalletHotkey[]): StartupWarning[] {
  if (config.chain.dry_run) return [];
  const neuron = view.neurons.find((n) => n.hotkey === self);
  if (neuron === undefined) {
    const other = walletHotkeySentence(walletHotkeys, config.wallet.name, config.netuid);
    return [
      {
        code: 'HOTKEY_NOT_REGISTERED',
        message:
          `hotkey ${self} is not registered on netuid ${config.netuid} (${view.neurons.length} neurons): the chain refuses every epoch's weights (HotKeyNotRegisteredInSubNet) and /readyz answers 503; ` +
          (other === ''
            ? 'register it on the subnet, or check the wallet (wallet.name, wallet.hotkey, wallet.path) and netuid'
            : `${other}, or register this one`),
        numbers: {
          hotkey: self,
          netuid: config.netuid,
          neurons: view.neurons.length,
          ...(walletHotkeys[0] === undefined ? {} : { walletHotkey: walletHotkeys[0].name, walletHotkeyUid: walletHotkeys[0].uid }),
        },
      },
    ];
  }
  const warnings: StartupWarning[] = [];
  const low = stakeBelowThreshold(view, neuron);
  if (low !== null) {
    warnings.push({
      code: 'HOTKEY_STAKE_BELOW_THRESHOLD',
      message: `${low.sentence} and /readyz answers 503; add stake to the hotkey (or delegate to it) up to the threshold`,
      numbers: { hotkey: self, netuid: config.netuid, uid: neuron.uid, ...low.numbers },
    });
  }
  if (neuron.validatorPermit || isExemptOwner(view, neuron)) return warnings;
  return [
    ...warnings,
    {
      code: 'HOTKEY_NO_VALIDATOR_PERMIT',
      message: `hotkey ${self} is uid ${neuron.uid} on netuid ${config.netuid} without a validator permit: the chain refuses its weights (NeuronNoValidatorPermit) and /readyz answers 503 until the subnet's epoch grants one (a permit goes to the neurons with the most stake)`,
      numbers: { hotkey: self, netuid: config.netuid, uid: neuron.uid },
    },
  ];
}

/**
 * The burn uid against the metagraph: weight "burned" reaches the chain as weight on that uid, so no neuron
 * holding it makes every vector with a burn share invalid (`UidVecContainInvalidOne`), and a neuron the chain
 * pays receives it as incentive. The chain withholds the incentive of the subnet owner's hotkeys (the owner
 * hotkey and the hotkeys of the owner's coldkey, Subtensor 14bc6f9f9 `run_coinbase.rs:604`, `:680`), so a burn uid holding
 * a hotkey that is neither the owner hotkey nor one of the same coldkey is reported. Nothing is said when the
 * owner hotkey is unknown or holds no uid (then its coldkey's hotkeys cannot be told).
 */
function burnUidWarnings(config: ValidatorConfig, view: ChainView, burnUid: number): StartupWarning[] {
  const holder = view.neurons.find((n) => n.uid === burnUid);
  if (holder === undefined) {
    return [
      {
        code: 'BURN_UID_NOT_IN_METAGRAPH',
        message: `scoring.pipeline.burn_uid is ${burnUid} but no neuron of netuid ${config.netuid} holds that uid (${view.neurons.length} neurons): every weight vector that burns a share names it, and the chain refuses such a vector (UidVecContainInvalidOne), so no weights are set; use the subnet owner's uid`,
        numbers: { burn_uid: burnUid, neurons: view.neurons.length },
      },
    ];
  }
  const ownerHotkey = view.ownerHotkey;
  if (typeof ownerHotkey !== 'string' || holder.hotkey === ownerHotkey) return [];
  const owner = view.neurons.find((n) => n.hotkey === ownerHotkey);
  if (owner === undefined || (owner.coldkey !== undefined && owner.coldkey === holder.coldkey)) return [];
  return [
    {
      code: 'BURN_UID_NOT_OWNER',
      message: `scoring.pipeline.burn_uid ${burnUid} holds hotkey ${holder.hotkey}, which is neither the subnet owner's hotkey ${ownerHotkey} (uid ${owner.uid}) nor a hotkey of its coldkey: the chain withholds the incentive of the owner's hotkeys only, so every share this validator burns (unallocated α, reward decay, caps, unscored miners) is paid to that neuron; use the owner's uid`,
      numbers: { burn_uid: burnUid, owner_uid: owner.uid },
    },
  ];
}
