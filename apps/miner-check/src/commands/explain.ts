import { hotkeySchema, parseInput, SubnetError } from '@subnet/core';
import type { MinerStory, PublishedBundle } from 'auditor-replay/pages';
import { explainMiner, formatMinerStory, formatPercent, minerHotkeys } from 'auditor-replay/pages';

import type { CommandOutput } from './output.js';
import { MINER_CHECK_ERROR_CODES } from '../errors.js';

/** What `miner-check explain` works on: a validator's published bundles, already read and checked. */
export interface ExplainInput {
  readonly bundles: readonly PublishedBundle[];
  readonly hotkey: string;
  /** The epoch whose story is told (default the newest bundle that has the miner). */
  readonly epoch?: number;
  /** From a validator URL: how many of the newest listed epochs were asked for (`--last`), named when the epoch is older. */
  readonly last?: number;
}

/**
 * Tells a miner, from a validator's published bundles, why its weight is what it is: its u16 weight over
 * the epochs, and for one epoch the story (own score and how it was reached, evaluations used and
 * excluded with their M values, normalisation, cap, decay, allocation, u16) read by `explainMiner` of
 * `auditor-replay/pages`, the same function the auditor's and the validator's pages use. Bundles whose
 * digest or signature does not verify are listed as set aside and never used.
 *
 * @param input - the bundles, the hotkey, the chosen epoch
 * @returns the text and the JSON object
 * @throws SubnetError `CORE_*` for a malformed hotkey; `MINER_CHECK_EPOCH_NOT_FOUND` when no verified bundle is
 *   of the chosen epoch (the message names the epochs there are); `MINER_CHECK_MINER_NOT_FOUND` when no verified
 *   bundle (or not the chosen epoch's) has this miner
 * @example explainCheck({ bundles: await readPublishedBundles('bundles/', { verify }), hotkey: '5F…' }).text
 */
export function explainCheck(input: ExplainInput): CommandOutput {
  const hotkey = parseInput(hotkeySchema, input.hotkey, MINER_CHECK_ERROR_CODES.invalidArgument, '--hotkey');
  const stories: MinerStory[] = [];
  for (const b of input.bundles) {
    if (b.bundle === null || !minerHotkeys(b.bundle).includes(hotkey)) continue;
    stories.push(explainMiner(b.bundle, hotkey));
  }
  stories.sort((a, b) => a.epoch - b.epoch);
  const setAside = input.bundles
    .filter((b) => b.problem !== null)
    .map((b) => ({ source: b.source, code: b.problem?.code ?? '', message: b.problem?.message ?? '', attempts: b.attempts }));
  const chosen = input.epoch === undefined ? stories.at(-1) : stories.find((s) => s.epoch === input.epoch);
  const verifiedEpochs = input.bundles.flatMap((b) => {
    const epoch = (b.bundle as { epoch?: unknown } | null)?.epoch;
    return b.bundle !== null && typeof epoch === 'number' ? [epoch] : [];
  });
  if (chosen === undefined && input.epoch !== undefined && !verifiedEpochs.includes(input.epoch)) {
    // The epoch has no bundle at all: that is the cause, not the miner (which may well be in the others).
    const first = setAside[0];
    const covered =
      verifiedEpochs.length === 0
        ? 'none verified'
        : `the ${first === undefined ? '' : 'verified '}bundles cover epoch${verifiedEpochs.length === 1 ? '' : 's'} ${epochRanges(verifiedEpochs)}`;
    throw new SubnetError(
      MINER_CHECK_ERROR_CODES.epochNotFound,
      `no ${first === undefined ? '' : 'verified '}bundle of epoch ${input.epoch}: ${covered}${
        first === undefined ? '' : ` (${setAside.length} set aside; the first: ${first.source}: ${codedMessage(first.code, first.message)})`
      }${olderThanRead(input, verifiedEpochs)}`,
      { context: { path: '--epoch', value: input.epoch } },
    );
  }
  if (chosen === undefined) {
    const first = setAside[0];
    const where = input.epoch === undefined ? 'in any verified bundle' : `in a verified bundle of epoch ${input.epoch}`;
    throw new SubnetError(
      MINER_CHECK_ERROR_CODES.minerNotFound,
      // Why nothing could be used matters most when nothing was (a validator that drips, redirects or signs
      // another epoch): the first bundle set aside is named with its reason.
      `no miner ${hotkey} ${where} (${input.bundles.length - setAside.length} verified, ${setAside.length} set aside${
        first === undefined ? '' : `; the first: ${first.source}: ${codedMessage(first.code, first.message)}`
      })`,
      {
        context: { path: input.epoch === undefined ? '--hotkey' : '--epoch', value: input.epoch ?? hotkey },
      },
    );
  }
  const history = stories.map((s) => ({ epoch: s.epoch, uid: s.uid, u16: s.u16, share: s.share, validator_hotkey: s.validator_hotkey }));
  const lines = [`miner ${hotkey}: weight in ${stories.length} of ${input.bundles.length} bundle(s)`, ''];
  lines.push('epoch  uid  u16    share');
  for (const h of history) lines.push(`${String(h.epoch).padEnd(5)}  ${String(h.uid ?? '-').padEnd(3)}  ${String(h.u16).padEnd(5)}  ${formatPercent(h.share)}`);
  // From a URL, how many GETs a bundle took when it was asked again (transient failures are retried), unless the
  // message already says it (the retries ran out).
  for (const s of setAside) {
    const retried = s.attempts !== null && s.attempts > 1 && !s.message.includes(`after ${s.attempts} attempts`);
    lines.push(`set aside ${s.source}${retried ? ` (${s.attempts} attempts)` : ''}: ${codedMessage(s.code, s.message)}`);
  }
  lines.push('', `why, epoch ${chosen.epoch} (validator ${chosen.validator_hotkey ?? '?'}):`, formatMinerStory(chosen));
  return {
    text: lines.join('\n'),
    json: { hotkey, epoch: chosen.epoch, history, story: chosen, set_aside: setAside },
  };
}

/** A set-aside reason with its code in front once (a SubnetError's message already starts with it). */
function codedMessage(code: string, message: string): string {
  return message.startsWith(`[${code}]`) ? message : `[${code}] ${message}`;
}

/** The most runs of consecutive epochs {@link epochRanges} writes out before it elides the middle ones. */
const MAX_RANGES = 8;

/**
 * Epochs written compactly: sorted, each run of consecutive epochs as `first–last` (`0–3, 5, 7–9`), the middle runs
 * elided past {@link MAX_RANGES} (`0–3, 5, 7, 9, …, 40, 42–45, 50, 52`).
 */
function epochRanges(epochs: readonly number[]): string {
  const sorted = [...new Set(epochs)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const epoch of sorted) {
    const run = runs.at(-1);
    if (run !== undefined && epoch === run[1] + 1) run[1] = epoch;
    else runs.push([epoch, epoch]);
  }
  const written = runs.map(([first, last]) => (first === last ? String(first) : `${first}–${last}`));
  const half = MAX_RANGES / 2;
  return (written.length <= MAX_RANGES ? written : [...written.slice(0, half), '…', ...written.slice(-half)]).join(', ');
}

/** From a URL that listed more epochs than `--last` read: the epoch asked for may be older than the ones read. */
function olderThanRead(input: ExplainInput, verifiedEpochs: readonly number[]): string {
  const asked = input.bundles.filter((b) => b.attempts !== null).length;
  if (input.last === undefined || input.epoch === undefined || asked < input.last || !(input.epoch < Math.min(...verifiedEpochs))) return '';
  return `; only the newest ${input.last} listed epochs were read (--last ${input.last}): raise --last to reach epoch ${input.epoch}`;
}
