import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

import { checkInputShape, CORE_INPUT_TOO_LARGE, DEFAULT_INPUT_LIMITS, describeSystemError, findStringifiedNumber, SubnetError } from '@subnet/core';
import { decimalFlagValue, integerFlagValue } from '@subnet/cli-support';
import type { LimitOption } from '@subnet/cli-support';
import type { InputLimits } from '@subnet/core';
import { MINER_CHECK_ERROR_CODES } from './errors.js';

const MINER_CHECK_INVALID_ARGUMENT = MINER_CHECK_ERROR_CODES.invalidArgument;

/** Where a command's JSON comes from: a file path, or `-` for standard input. */
export type InputSource = string;

/** Reads all of standard input (once: a second `-` is refused before anything is read), as bytes or text. */
export type StdinReader = () => string | Uint8Array;

export const defaultStdin: StdinReader = () => readFileSync(0);

/** Strict UTF-8, as the validator decodes a body (a leading byte-order mark is kept here and skipped by {@link readJson}). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads at most `max + 1` bytes of a file, so a file that never ends (`/dev/zero`, a FIFO) or a huge one is
 * refused by its size without being read whole.
 *
 * @returns the bytes read, and the file's size when it is a regular file
 */
function readFileBounded(path: string, max: number): { bytes: Uint8Array; size: number | undefined } {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(stat.isFile() ? Math.min(stat.size, max) + 1 : max + 1);
    let total = 0;
    while (total < buffer.length) {
      const n = readSync(fd, buffer, total, buffer.length - total, null);
      if (n === 0) break;
      total += n;
    }
    return { bytes: buffer.subarray(0, total), size: stat.isFile() ? Math.max(stat.size, total) : undefined };
  } finally {
    closeSync(fd);
  }
}

/**
 * The size limits every input file is checked against (`--max-bytes`, `--max-depth`, `--max-list-length`,
 * `--max-string-length`, `--max-object-keys`). The defaults are the validator's (`server.body_limit_bytes`
 * and `server.input_limits`), so a file checked here is one its ingest accepts by default; set them to a
 * validator's configured values to check against that validator.
 */
export interface ReadLimits extends InputLimits {
  /** UTF-8 bytes of one input (a file, or standard input). */
  readonly maxBytes: number;
}

/** The validator's default limits: 1 MiB bodies and `@subnet/core`'s shape limits (depth 64). */
export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({ maxBytes: 1024 * 1024, ...DEFAULT_INPUT_LIMITS });

/** The largest `--max-bytes` (the validator's largest `server.body_limit_bytes`). */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

/**
 * Reads and parses one JSON document.
 *
 * @param source - a file path, or `-` for standard input
 * @param option - the flag it came from (`--task`), named in errors
 * @param stdin - how standard input is read
 * @param limits - the size limits (default {@link DEFAULT_READ_LIMITS})
 * @throws SubnetError `MINER_CHECK_UNREADABLE_INPUT` (missing or unreadable file),
 *   `CORE_INPUT_TOO_LARGE` (more than `maxBytes` UTF-8 bytes; `limit` and the byte count in the context),
 *   `MINER_CHECK_MALFORMED_JSON` (not JSON: NaN and Infinity literals and bytes that are not UTF-8 included; an empty
 *   file is said to be empty),
 *   the shape codes of `checkInputShape` (`CORE_INPUT_TOO_DEEP` beyond `maxDepth` levels, `CORE_INPUT_TOO_LARGE`,
 *   `CORE_INPUT_NOT_JSON`), or `MINER_CHECK_INVALID_INPUT` for a number the validator refuses (an integer
 *   beyond 2^53, which canonical JSON writes as a string)
 */
export function readJson(source: InputSource, option: string, stdin: StdinReader = defaultStdin, limits: ReadLimits = DEFAULT_READ_LIMITS): unknown {
  const name = source === '-' ? 'standard input' : source;
  let read: string | Uint8Array;
  let size: number | undefined;
  try {
    if (source === '-') read = stdin();
    else ({ bytes: read, size } = readFileBounded(source, limits.maxBytes));
  } catch (error) {
    const reason = describeSystemError(error);
    // What to give the flag instead, for the two a newcomer meets: a path that does not exist, a folder.
    const code = (error as NodeJS.ErrnoException).code;
    const flag = option.replace(/\[\d+\]$/, '');
    const advice =
      code === 'ENOENT'
        ? `; give ${flag} the path of an existing JSON file, or - for standard input`
        : code === 'EISDIR'
          ? `; it is a folder: give ${flag} one JSON file in it`
          : '';
    throw new SubnetError(MINER_CHECK_ERROR_CODES.unreadableInput, `cannot read ${name}${reason === undefined ? '' : `: ${reason}`}${advice}`, {
      context: { path: option, value: source },
      cause: error,
    });
  }
  const bytes = typeof read === 'string' ? Buffer.byteLength(read, 'utf8') : read.length;
  if (bytes > limits.maxBytes) {
    throw new SubnetError(CORE_INPUT_TOO_LARGE, `${name} is larger than ${limits.maxBytes} bytes (--max-bytes)`, {
      context: { path: option, value: size ?? `more than ${limits.maxBytes}`, limit: limits.maxBytes, limitName: 'maxBytes' },
    });
  }
  let text: string;
  if (typeof read === 'string') text = read;
  else {
    try {
      text = utf8.decode(read);
    } catch (error) {
      // JSON is UTF-8 (RFC 8259): never read with U+FFFD in place of bytes the file holds (the validator refuses such a body).
      throw new SubnetError(MINER_CHECK_ERROR_CODES.malformedJson, `${name} is not valid JSON: it is not valid UTF-8`, {
        context: { path: option, value: source },
        cause: error,
      });
    }
  }
  // One leading byte-order mark is not part of the JSON text (RFC 8259 8.1): the validator's body parser
  // skips it, so a file an editor saved with one is checked as the validator would read it (docs/spec.md G.6).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // JSON.parse's "Unexpected end of JSON input" for a file with nothing in it: say so, with the flag it was given to.
  if (/^[ \t\n\r]*$/.test(text)) {
    const what = text === '' ? 'is empty' : 'holds only white space';
    throw new SubnetError(MINER_CHECK_ERROR_CODES.malformedJson, `${name}, given to ${option}, ${what}: there is no JSON in it`, {
      context: { path: option, value: source },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SubnetError(MINER_CHECK_ERROR_CODES.malformedJson, `${name} is not valid JSON: ${detail}`, {
      context: { path: option, value: text.length > 60 ? `${text.slice(0, 57)}...` : text },
      cause: error,
    });
  }
  // The validator's limits (SPEC 0 "Hostile shapes"): a file checked here is one its ingest accepts.
  checkInputShape(
    value,
    { maxDepth: limits.maxDepth, maxListLength: limits.maxListLength, maxStringLength: limits.maxStringLength, maxObjectKeys: limits.maxObjectKeys },
    option,
  );
  // The validator stores a body as canonical JSON, where such a number becomes a string: it refuses it.
  const unsafe = findStringifiedNumber(value, option);
  if (unsafe !== undefined) {
    // The shared reason without its place: SubnetError appends the path and the number from the context, said once.
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidInput, `the validator refuses it (UNSAFE_NUMBER): ${unsafe.reason}`, {
      context: { path: unsafe.path, value: unsafe.value },
    });
  }
  return value;
}

/** Refuses a command line that reads standard input more than once. */
export function assertSingleStdin(sources: Record<string, InputSource | readonly InputSource[] | undefined>): void {
  const fromStdin = Object.entries(sources).flatMap(([option, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) => v === '-').map(() => option),
  );
  if (fromStdin.length > 1) {
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, 'only one input can come from standard input (-)', {
      context: { path: fromStdin.join(', '), value: '-' },
    });
  }
}

/**
 * Parses a decimal flag: a finite number written as JSON writes one (`0.25`, `1e-3`, `-2`); spaces, a plus sign, a
 * leading zero or dot, a `0x` prefix, `Infinity`, `NaN` and `-0` are refused (`@subnet/cli-support`'s
 * `decimalFlagValue`, the rule of every CLI), never read as the number JavaScript would make of them.
 *
 * @param value - the flag's text as given
 * @param option - the flag (`--cap`), named in errors
 * @returns the number
 * @throws SubnetError `MINER_CHECK_INVALID_ARGUMENT` naming the flag and the value as given, and what is wrong with it
 * @example numberOption('0.2', '--cap') // 0.2
 */
export function numberOption(value: string, option: string): number {
  const read = decimalFlagValue(value);
  if (!read.ok) {
    throw new SubnetError(MINER_CHECK_INVALID_ARGUMENT, `expected a number as JSON writes it; the value ${read.problem}`, { context: { path: option, value } });
  }
  return read.value;
}

/**
 * Parses a number flag within an interval, so a value out of range names the flag rather than the package option it
 * feeds (`--cap 2`, not `options.cap`).
 *
 * @param value - the flag's text
 * @param option - the flag (`--cap`), named in errors
 * @param range - the bounds and whether the lower one is excluded (`(0, 1]`)
 * @returns the number
 * @throws SubnetError `MINER_CHECK_INVALID_ARGUMENT` naming the flag, the value and the interval
 * @example rangeOption('0.2', '--cap', { min: 0, minExclusive: true, max: 1 }) // 0.2
 */
export function rangeOption(value: string, option: string, range: { readonly min: number; readonly minExclusive?: boolean; readonly max?: number }): number {
  const parsed = numberOption(value, option);
  const exclusive = range.minExclusive === true;
  if ((exclusive ? parsed <= range.min : parsed < range.min) || (range.max !== undefined && parsed > range.max)) {
    const allowed = range.max === undefined ? `${exclusive ? '>' : '>='} ${range.min}` : `in ${exclusive ? '(' : '['}${range.min}, ${range.max}]`;
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, `expected a number ${allowed}`, { context: { path: option, value } });
  }
  return parsed;
}

/**
 * Parses an integer flag within bounds: decimal digits only (`1000`; no spaces, plus sign, leading zero, fraction,
 * exponent or `0x` prefix: `@subnet/cli-support`'s `integerFlagValue`, the rule of every CLI), so `1e3`, `0x10`, ` 5`,
 * `3.0` and `-0` are refused with the spelling to write, never read as the number JavaScript would make of them.
 *
 * @param value - the flag's text as given
 * @param option - the flag (`--uid`), named in errors
 * @param min - the smallest value taken
 * @param max - the largest value taken
 * @returns the integer
 * @throws SubnetError `MINER_CHECK_INVALID_ARGUMENT` naming the flag, the value as given and the range
 * @example integerOption('3', '--primaries', 0, 65536) // 3
 */
export function integerOption(value: string, option: string, min: number, max: number): number {
  const read = integerFlagValue(value, min, max);
  if (!read.ok) {
    const why = read.outOfRange ? '' : ` in decimal digits; the value ${read.problem}`;
    throw new SubnetError(MINER_CHECK_INVALID_ARGUMENT, `expected an integer from ${min} to ${max}${why}`, { context: { path: option, value } });
  }
  return read.value;
}

/** The raw values of the limit flags (strings from the command line). */
export interface LimitFlags {
  readonly maxBytes?: string;
  readonly maxDepth?: string;
  readonly maxListLength?: string;
  readonly maxStringLength?: string;
  readonly maxObjectKeys?: string;
}

/**
 * Parses the limit flags: each an integer from 1 to the validator's largest allowed value (the default
 * when the flag is absent).
 *
 * @param flags - the raw flag values
 * @returns the limits
 * @throws SubnetError `MINER_CHECK_INVALID_ARGUMENT` naming the flag and its value
 * @example readLimits({ maxDepth: '32' }).maxDepth // 32
 */
export function readLimits(flags: LimitFlags): ReadLimits {
  const d = DEFAULT_READ_LIMITS;
  const o = READ_LIMIT_OPTIONS;
  const read = (raw: string | undefined, option: LimitOption, fallback: number) =>
    raw === undefined ? fallback : integerOption(raw, option.flag, 1, option.most);
  return Object.freeze({
    maxBytes: read(flags.maxBytes, o.maxBytes, d.maxBytes),
    maxDepth: read(flags.maxDepth, o.maxDepth, d.maxDepth),
    maxListLength: read(flags.maxListLength, o.maxListLength, d.maxListLength),
    maxStringLength: read(flags.maxStringLength, o.maxStringLength, d.maxStringLength),
    maxObjectKeys: read(flags.maxObjectKeys, o.maxObjectKeys, d.maxObjectKeys),
  });
}

/**
 * The flag that sets each limit and its largest value (the validator's largest), by the limit's name in
 * {@link ReadLimits}: named under a refusal for going over one (`overLimitHint` of `@subnet/cli-support`).
 */
export const READ_LIMIT_OPTIONS: Readonly<Record<keyof ReadLimits, LimitOption>> = Object.freeze({
  maxBytes: { flag: '--max-bytes', most: MAX_READ_BYTES },
  maxDepth: { flag: '--max-depth', most: DEFAULT_READ_LIMITS.maxDepth },
  maxListLength: { flag: '--max-list-length', most: DEFAULT_READ_LIMITS.maxListLength },
  maxStringLength: { flag: '--max-string-length', most: DEFAULT_READ_LIMITS.maxStringLength },
  maxObjectKeys: { flag: '--max-object-keys', most: DEFAULT_READ_LIMITS.maxObjectKeys },
});
