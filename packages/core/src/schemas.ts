import { z } from 'zod';

import { isSubnetError } from './errors.js';
import { decodeSs58 } from './ss58.js';

/** How many SS58 verdicts {@link ss58Problem} remembers before it starts over. */
const SS58_MEMO_LIMIT = 65_536;
const ss58Verdicts = new Map<string, string | null>();

/**
 * Why a string is not a valid SS58 address (null when it is). The checksum is a pure-JS blake2b-512, and
 * the same few hundred hotkeys are checked in every parse of every epoch, so verdicts are remembered
 * (bounded; the verdict of a string never changes, so the memo cannot change a result).
 */
function ss58Problem(value: string): string | null {
  const known = ss58Verdicts.get(value);
  if (known !== undefined) return known;
  let verdict: string | null = null;
  try {
    decodeSs58(value);
  } catch (error) {
    // The code has digits (CORE_INVALID_SS58): the issue's message is the sentence alone, as every other issue's is.
    verdict = isSubnetError(error) ? error.message.replace(/^\[[A-Z0-9_]+\] /, '').replace(/ \(got .*\)$/, '') : 'invalid SS58';
  }
  if (ss58Verdicts.size >= SS58_MEMO_LIMIT) ss58Verdicts.clear();
  ss58Verdicts.set(value, verdict);
  return verdict;
}

/**
 * An SS58 hotkey (32-byte account, checksum verified). Any network prefix is accepted; Bittensor uses 42.
 *
 * @example hotkeySchema.parse('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')
 */
export const hotkeySchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = ss58Problem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .brand<'Hotkey'>();
/** A checksum-verified SS58 hotkey. */
export type Hotkey = z.infer<typeof hotkeySchema>;

/**
 * Whether a value is a string {@link hotkeySchema} accepts (an SS58 address with a valid checksum), without
 * running the schema: the verdict of the same remembered check, for hand-written fast paths that fall back
 * to the schema (and its error message) only when this says no.
 *
 * @param value - any value
 * @returns true exactly when `hotkeySchema.safeParse(value).success`
 * @example isHotkey('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY') // true
 */
export function isHotkey(value: unknown): value is Hotkey {
  return typeof value === 'string' && ss58Problem(value) === null;
}

/** A neuron uid: an integer 0..65535 (u16). */
export const uidSchema = z.number().int().min(0).max(65535).brand<'Uid'>();
/** A neuron uid (u16). */
export type Uid = z.infer<typeof uidSchema>;

/** A u16 weight value as it goes on chain: an integer 0..65535. */
export const u16WeightSchema = z.number().int().min(0).max(65535).brand<'U16Weight'>();
/** A u16 weight value. */
export type U16Weight = z.infer<typeof u16WeightSchema>;

/** A finite number in the closed unit interval [0, 1] (NaN and ±Infinity are rejected). */
export const unitIntervalSchema = z.number().min(0).max(1).brand<'UnitInterval'>();
/** A number in [0, 1]. */
export type UnitInterval = z.infer<typeof unitIntervalSchema>;

/** A finite number >= 0 (NaN and ±Infinity are rejected). */
export const nonNegativeFiniteSchema = z.number().min(0);

/** The largest u64: block numbers never exceed it. */
export const U64_MAX = 2n ** 64n - 1n;

/**
 * A block number: a non-negative integer up to u64::MAX, given as a safe-integer number, a bigint, or a
 * string of decimal digits (how canonical JSON writes large integers). Parsed to a `bigint`.
 *
 * @example blockNumberSchema.parse(4_200_000) // 4200000n
 */
export const blockNumberSchema = z
  .union([
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z.bigint().min(0n).max(U64_MAX),
    z.string().regex(/^(0|[1-9][0-9]{0,19})$/, 'a block number string is decimal digits without leading zeros'),
  ])
  .transform((value, ctx) => {
    const block = BigInt(value);
    if (block > U64_MAX) {
      ctx.addIssue({ code: 'custom', message: 'a block number is at most u64::MAX' });
      return z.NEVER;
    }
    return block;
  })
  .brand<'BlockNumber'>();
/** A block number (bigint). */
export type BlockNumber = z.infer<typeof blockNumberSchema>;
