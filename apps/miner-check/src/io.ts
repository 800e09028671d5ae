import { readFileSync } from 'node:fs';

import { checkInputShape, CORE_INPUT_TOO_LARGE, DEFAULT_INPUT_LIMITS, SubnetError } from '@subnet/core';
import type { InputLimits } from '@subnet/core';

/** Where a command's JSON comes from: a file path, or `-` for standard input. */
export type InputSource = string;

/** Reads all of standard input (once: a second `-` is refused before anything is read). */
export type StdinReader = () => string;

export const defaultStdin: StdinReader = () => readFileSync(0, 'utf8');

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
 *   `MINER_CHECK_MALFORMED_JSON` (not JSON: NaN and Infinity literals included), or the shape codes of
 *   `checkInputShape` (`CORE_INPUT_TOO_DEEP` beyond `maxDepth` levels, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`)
 */
export function readJson(source: InputSource, option: string, stdin: StdinReader = defaultStdin, limits: ReadLimits = DEFAULT_READ_LIMITS): unknown {
  let text: string;
  try {
    text = source === '-' ? stdin() : readFileSync(source, 'utf8');
  } catch (error) {
    throw new SubnetError('MINER_CHECK_UNREADABLE_INPUT', `cannot read ${source === '-' ? 'standard input' : source}`, {
      context: { path: option, value: source },
      cause: error,
    });
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    throw new SubnetError(CORE_INPUT_TOO_LARGE, `${source === '-' ? 'standard input' : source} is larger than ${limits.maxBytes} bytes (--max-bytes)`, {
      context: { path: option, value: bytes, limit: limits.maxBytes },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SubnetError('MINER_CHECK_MALFORMED_JSON', `${source === '-' ? 'standard input' : source} is not valid JSON: ${detail}`, {
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
  return value;
}

/** Refuses a command line that reads standard input more than once. */
export function assertSingleStdin(sources: Record<string, InputSource | readonly InputSource[] | undefined>): void {
  const fromStdin = Object.entries(sources).flatMap(([option, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) => v === '-').map(() => option),
  );
  if (fromStdin.length > 1) {
    throw new SubnetError('MINER_CHECK_INVALID_ARGUMENT', 'only one input can come from standard input (-)', {
      context: { path: fromStdin.join(', '), value: '-' },
    });
  }
}

/** Parses a numeric flag, naming it when it is not a finite number. */
export function numberOption(value: string, option: string): number {
  const parsed = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(parsed)) {
    throw new SubnetError('MINER_CHECK_INVALID_ARGUMENT', 'expected a finite number', { context: { path: option, value } });
  }
  return parsed;
}

/** Parses an integer flag within bounds. */
export function integerOption(value: string, option: string, min: number, max: number): number {
  const parsed = numberOption(value, option);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new SubnetError('MINER_CHECK_INVALID_ARGUMENT', `expected an integer from ${min} to ${max}`, { context: { path: option, value } });
  }
  return parsed;
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
  const read = (raw: string | undefined, option: string, fallback: number, max: number) => (raw === undefined ? fallback : integerOption(raw, option, 1, max));
  return Object.freeze({
    maxBytes: read(flags.maxBytes, '--max-bytes', d.maxBytes, MAX_READ_BYTES),
    maxDepth: read(flags.maxDepth, '--max-depth', d.maxDepth, d.maxDepth),
    maxListLength: read(flags.maxListLength, '--max-list-length', d.maxListLength, d.maxListLength),
    maxStringLength: read(flags.maxStringLength, '--max-string-length', d.maxStringLength, d.maxStringLength),
    maxObjectKeys: read(flags.maxObjectKeys, '--max-object-keys', d.maxObjectKeys, d.maxObjectKeys),
  });
}
