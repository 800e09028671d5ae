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
 * @throws SubnetError `CORE_*` for a malformed hotkey; `MINER_CHECK_MINER_NOT_FOUND` when no verified
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
