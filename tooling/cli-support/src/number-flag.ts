/**
 * What a number flag's text reads as: its value, or why it is not one the CLIs take (a predicate about the text as
 * given, with the spelling to write when there is one: `is written with an exponent (write 1000)`).
 */
export type FlagNumber =
  | { readonly ok: true; readonly value: number }
  | {
      readonly ok: false;
      /** What is wrong with the text, said of it: `is written with an exponent (write 1000)`, `is above 65535`. */
      readonly problem: string;
      /** The text is a number the rule takes, outside the flag's range (`problem` is `is below 1` or `is above 65535`). */
      readonly outOfRange: boolean;
    };

/** An integer as every CLI takes it: decimal digits, a minus sign only before a non-zero value, no leading zero. */
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/** A decimal number as JSON writes one (RFC 8259): an optional minus, digits without a leading zero, a fraction, an exponent. */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Why `text` is not the spelling of a number a flag takes, and the spelling to write when JavaScript reads one from it. */
function spellingProblem(text: string, integer: boolean): string {
  if (text === '') return 'is empty';
  if (text.trim() === '') return 'holds only white space';
  if (/^[+-]?(?:Infinity|NaN)$/i.test(text)) return 'is not a finite number';
  if (/^--?[A-Za-z]/.test(text)) return 'is a flag, not a value: give the value right after the flag';
  const meant = Number(text.trim());
  const write = Number.isFinite(meant) && !Object.is(meant, -0) ? ` (write ${String(meant)})` : '';
  if (text.trim() !== text) return `has white space around it${write}`;
  if (/^[+-]?0[xob]/i.test(text)) return `is written with a ${text.replace(/^[+-]/, '').slice(0, 2)} prefix${write}`;
  if (text.startsWith('+')) return `has a plus sign${write}`;
  if (Number.isNaN(meant)) return 'is not a number';
  if (/^-?0[0-9]/.test(text)) return `has a leading zero${write}`;
  if (/^-?\./.test(text) || /\.(?:$|[eE])/.test(text)) return `has a dot without a digit on each side${write}`;
  if (integer && /[eE]/.test(text)) return `is written with an exponent${Number.isSafeInteger(meant) ? write : ''}`;
  if (integer && text.includes('.')) return Number.isInteger(meant) ? `has a fraction${write}` : 'is not a whole number';
  return 'is not a number';
}

/**
 * Reads an integer flag by the one rule of the command-line apps: the value when `text` is
 * decimal digits for an integer from `min` to `max`; else why not, about the text exactly as given (`1e3`, `0x10`,
 * ` 5`, `5abc`, `-0`, `Infinity`, `3.0`, an empty value and a flag taken as the value are all refused, never read as
 * the number JavaScript would make of them). Each app puts the flag, its code and its own sentence around `problem`.
 *
 * @param text - the flag's value as given
 * @param min - the smallest value taken
 * @param max - the largest value taken (at most `Number.MAX_SAFE_INTEGER`)
 * @returns `{ ok: true, value }`, or `{ ok: false, problem }`: `is written with an exponent (write 1000)`,
 *   `is below 1`, `is above 65535`
 * @example integerFlagValue('1e3', 0, 65535) // { ok: false, problem: 'is written with an exponent (write 1000)' }
 */
export function integerFlagValue(text: string, min: number, max: number): FlagNumber {
  if (!INTEGER.test(text) || text === '-0')
    return { ok: false, problem: text === '-0' ? 'is zero with a minus sign (write 0)' : spellingProblem(text, true), outOfRange: false };
  const value = Number(text);
  // An unsafe integer is out of range on its own side: a long negative one is below the minimum, not above the maximum.
  if (value > max || (!Number.isSafeInteger(value) && value > 0)) return { ok: false, problem: `is above ${max}`, outOfRange: true };
  if (value < min || !Number.isSafeInteger(value)) return { ok: false, problem: `is below ${min}`, outOfRange: true };
  return { ok: true, value };
}

/**
 * Reads a decimal flag by the one rule of the command-line apps: the value when `text` is a
 * finite number as JSON writes one; else why not (` 5`, `0x10`, `+1`, `.5`, `Infinity`, `-0`, an empty value, a flag
 * taken as the value). Ranges are the caller's, which knows whether a bound is excluded.
 *
 * @param text - the flag's value as given
 * @returns `{ ok: true, value }`, or `{ ok: false, problem }`
 * @example decimalFlagValue('.5') // { ok: false, problem: 'has a dot without a digit on each side (write 0.5)' }
 */
export function decimalFlagValue(text: string): FlagNumber {
  if (!DECIMAL.test(text)) return { ok: false, problem: spellingProblem(text, false), outOfRange: false };
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, problem: 'is too large to be a finite number', outOfRange: false };
  if (Object.is(value, -0)) return { ok: false, problem: 'is zero with a minus sign (write 0)', outOfRange: false };
  return { ok: true, value };
}
