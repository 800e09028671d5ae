import { z } from 'zod';

import { applyWeightCap, mapHotkeysToUids, normaliseScores, toU16, type NormalisationStrategy } from '@subnet/aggregation';
import { hotkeySchema, parseInput, SubnetError, uidSchema, unitIntervalSchema } from '@subnet/core';

import { fmt, section, table } from '../render.js';
import type { CommandOutput } from './output.js';
import { MINER_CHECK_ERROR_CODES } from '../errors.js';

/** The wire format of a scores file: one entry per miner (snake_case). */
export const minerScoresSchema = z
  .array(
    z.strictObject({
      uid: uidSchema,
      hotkey: hotkeySchema,
      score: unitIntervalSchema,
      submitted_at: z.number().int().min(0).optional(),
    }),
  )
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    entries.forEach((e, i) => {
      for (const [field, key] of [
        ['hotkey', `h:${e.hotkey}`],
        ['uid', `u:${e.uid}`],
      ] as const) {
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `duplicate ${field} (also at [${seen.get(key)}])`, path: [i, field] });
        else seen.set(key, i);
      }
    });
  });

/** Options of `miner-check weights`. */
export interface WeightsOptions {
  readonly strategy: NormalisationStrategy;
  readonly temperature?: number;
  readonly cap: number;
  readonly burnUid: number;
}

/**
 * The weight share and u16 value each miner would get from a set of scores: `@subnet/aggregation`'s
 * normalisation, weight cap, hotkey-to-uid mapping and u16 conversion (sum mode), in that order.
 */
export function weightsCheck(input: { readonly scores: unknown; readonly options: WeightsOptions }): CommandOutput {
  const scores = parseInput(minerScoresSchema, input.scores, MINER_CHECK_ERROR_CODES.invalidInput, 'scores');
  const { options } = input;
  if (options.strategy === 'softmax' && options.temperature === undefined) {
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, 'softmax needs --temperature (a number > 0)', {
      context: { path: '--temperature', value: undefined },
    });
  }
  const normalised = normaliseScores(
    scores.map((s) => ({ hotkey: s.hotkey, score: s.score, ...(s.submitted_at === undefined ? {} : { submittedAt: s.submitted_at }) })),
    { strategy: options.strategy, ...(options.temperature === undefined ? {} : { temperature: options.temperature }) },
  );
  const capped = applyWeightCap(normalised.weights, { cap: options.cap, burnUid: options.burnUid });
  const burn = normalised.burn + capped.burn;
  const byUid = mapHotkeysToUids({
    weights: capped.weights,
    burn,
    metagraph: scores.map((s) => ({ hotkey: s.hotkey, uid: s.uid })),
    burnUid: options.burnUid,
  });
  const u16 = toU16(byUid.weights, { mode: 'sum' });
  const u16Of = new Map(u16.uids.map((uid, i) => [uid, u16.weights[i] ?? 0]));
  const uidOf = new Map(scores.map((s) => [s.hotkey as string, s.uid as number]));
  const minerIsBurnUid = scores.some((s) => s.uid === options.burnUid);

  // A uid carries one value on chain: when the burn uid is also a miner's, the burn is part of that
  // miner's u16 value and the burn line shows 0.
  const rows = capped.weights.map((w) => {
    const uid = uidOf.get(w.hotkey) ?? -1;
    return { key: w.hotkey, uid, share: w.weight, u16: u16Of.get(uid) ?? 0 };
  });
  const json = {
    weights: rows,
    burn: { uid: options.burnUid, share: burn, u16: minerIsBurnUid ? 0 : (u16Of.get(options.burnUid) ?? 0) },
  };
  const text = [
    section(
      `Weights (${options.strategy}${options.temperature === undefined ? '' : `, T = ${options.temperature}`}, cap ${options.cap}, u16 sum mode)`,
      table(
        ['uid', 'hotkey', 'score', 'share', 'u16'],
        rows.map((r) => [`${r.uid}`, r.key, fmt(scores.find((s) => s.hotkey === r.key)?.score ?? 0, 4), fmt(r.share), `${r.u16}`]),
      ),
    ),
    `Burn to uid ${options.burnUid}: share ${fmt(burn)}, u16 ${json.burn.u16}${minerIsBurnUid ? ' (added to that miner, whose uid is the burn uid)' : ''}.`,
    `Capped miners: ${capped.explanation.capped.length === 0 ? 'none' : capped.explanation.capped.join(', ')}.`,
    `u16 values sum to ${u16.weights.reduce((a, b) => a + b, 0)}.`,
  ].join('\n');
  return { json, text };
}
