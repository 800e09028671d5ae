import { readFileSync } from 'node:fs';

import { checkInputShape, SubnetError } from '@subnet/core';

/** Where a command's JSON comes from: a file path, or `-` for standard input. */
export type InputSource = string;

/** Reads all of standard input (once: a second `-` is refused before anything is read). */
export type StdinReader = () => string;

export const defaultStdin: StdinReader = () => readFileSync(0, 'utf8');

/**
 * Reads and parses one JSON document.
 *
 * @param source - a file path, or `-` for standard input
 * @param option - the flag it came from (`--task`), named in errors
 * @throws SubnetError `MINER_CHECK_UNREADABLE_INPUT` (missing or unreadable file),
 *   `MINER_CHECK_MALFORMED_JSON` (not JSON: NaN and Infinity literals included), or the shape codes of
 *   `checkInputShape` (`CORE_INPUT_TOO_DEEP` beyond 64 levels, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`)
 */
export function readJson(source: InputSource, option: string, stdin: StdinReader = defaultStdin): unknown {
  let text: string;
  try {
    text = source === '-' ? stdin() : readFileSync(source, 'utf8');
  } catch (error) {
    throw new SubnetError('MINER_CHECK_UNREADABLE_INPUT', `cannot read ${source === '-' ? 'standard input' : source}`, {
      context: { path: option, value: source },
      cause: error,
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
  checkInputShape(value, { maxDepth: 64 }, option);
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
