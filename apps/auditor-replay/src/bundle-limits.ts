import { overLimitHint } from '@subnet/cli-support';
import type { LimitOption } from '@subnet/cli-support';
import { checkInputShape, CORE_INPUT_TOO_LARGE, DEFAULT_INPUT_LIMITS, isSubnetError } from '@subnet/core';
import type { CanonicalJsonTextShape, InputLimits } from '@subnet/core';

/**
 * The size limits a bundle document is held to before anything reads it (docs/spec.md G.6): its bytes,
 * then `@subnet/core`'s shape check of the parsed document (depth, list, string and key counts, well-formed
 * text). Set with `verify --max-bundle-bytes`, `--max-depth`, `--max-list-length`, `--max-string-length`,
 * `--max-object-keys`.
 */
export interface BundleLimits extends InputLimits {
  /** UTF-8 bytes of one bundle file. */
  readonly maxBytes: number;
}

/** The deepest a bundle document may be: canonical JSON's own limit (records inside it are at most 64). */
export const MAX_BUNDLE_DEPTH = 128;
/** The largest `--max-bundle-bytes`. */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

/**
 * The defaults: 64 MiB a file, depth 128 (a bundle wraps records of at most 64 levels in a few of its own,
 * and canonical JSON stops at 128), and core's list, string and key limits.
 */
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = Object.freeze({
  ...DEFAULT_INPUT_LIMITS,
  maxBytes: 64 * 1024 * 1024,
  maxDepth: MAX_BUNDLE_DEPTH,
});

/**
 * `verify`'s option for each limit and its largest value, by the limit's name in {@link BundleLimits}: named after a
 * refusal for going over one (`overLimitHint` of `@subnet/cli-support`).
 */
export const BUNDLE_LIMIT_OPTIONS: Readonly<Record<keyof BundleLimits, LimitOption>> = Object.freeze({
  maxBytes: { flag: '--max-bundle-bytes', most: MAX_BUNDLE_BYTES },
  maxDepth: { flag: '--max-depth', most: MAX_BUNDLE_DEPTH },
  maxListLength: { flag: '--max-list-length', most: 100_000_000 },
  maxStringLength: { flag: '--max-string-length', most: MAX_BUNDLE_BYTES },
  maxObjectKeys: { flag: '--max-object-keys', most: 100_000_000 },
});

/**
 * Why a validator's answer was refused while it was read (`auditor-replay fetch`, `readPublishedBundles`): more bytes
 * than `maxBytes`, ending with the option that sets it (`--max-bundle-bytes`, as `verify`'s), its value and how far it can
 * be raised (docs/spec.md G.24, G.46 (a)).
 *
 * @param maxBytes - the limit the answer went over
 * @returns the sentence
 * @example answerTooLargeSentence(1024)
 *   // 'the answer is larger than 1024 bytes; the limit is --max-bundle-bytes 1024: raise it (at most 268435456) to allow more'
 */
export function answerTooLargeSentence(maxBytes: number): string {
  return `the answer is larger than ${maxBytes} bytes; ${overLimitHint({ limitName: 'maxBytes', limit: maxBytes }, BUNDLE_BYTES_OPTION) ?? ''}`;
}

/** The one limit option of a command that reads bundles but sets no shape limit (`fetch`, `miner-check explain`). */
export const BUNDLE_BYTES_OPTION: Readonly<Record<'maxBytes', LimitOption>> = Object.freeze({ maxBytes: BUNDLE_LIMIT_OPTIONS.maxBytes });

/** Why a document was refused (the shape of a load error). */
export interface LimitError {
  readonly code: string;
  readonly message: string;
  readonly path: string | null;
}

/**
 * Refuses a file larger than `maxBytes` before it is read. With the options that set the limits (`verify`'s
 * {@link BUNDLE_LIMIT_OPTIONS}) the message ends with the option, its value and how far it can be raised, as a refusal
 * by any other limit does (docs/spec.md G.24, G.42 (c)); without them (a reader whose limit is no option of its command
 * line, such as `miner-check explain`) it names no option.
 *
 * @param file - the path (named in the message)
 * @param size - its size in bytes
 * @param limits - the limits
 * @param options - the options that set the limits, named after the message; none when they are not the command line's
 * @returns undefined, or the coded `CORE_INPUT_TOO_LARGE` error naming the file, its size and the limit
 * @example const refused = checkBundleBytes('epoch-7.json', (await stat(file)).size, limits, BUNDLE_LIMIT_OPTIONS)
 *   // '… has 70000000 bytes, more than the limit of 67108864; the limit is --max-bundle-bytes 67108864: raise it (at most 268435456) to allow more'
 */
export function checkBundleBytes(file: string, size: number, limits: BundleLimits, options?: Readonly<Record<string, LimitOption>>): LimitError | undefined {
  if (size <= limits.maxBytes) return undefined;
  const hint = options === undefined ? undefined : overLimitHint({ limitName: 'maxBytes', limit: limits.maxBytes }, options);
  return {
    code: CORE_INPUT_TOO_LARGE,
    message:
      hint === undefined
        ? `${file} has ${size} bytes, more than the ${limits.maxBytes} a bundle file may have`
        : `${file} has ${size} bytes, more than the limit of ${limits.maxBytes}; ${hint}`,
    path: null,
  };
}

/**
 * Checks the parsed document's shape against the limits.
 *
 * @param value - the parsed document
 * @param limits - the limits
 * @param options - the options that set the limits (`verify`'s {@link BUNDLE_LIMIT_OPTIONS}), named after the message of
 *   a refusal for going over one with the limit's value; none when the limits are not the command line's
 * @returns undefined, or the coded error (`CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE`, `CORE_INPUT_NOT_JSON`) with its path
 * @example const refused = checkBundleShape(JSON.parse(text), limits, BUNDLE_LIMIT_OPTIONS)
 */
export function checkBundleShape(value: unknown, limits: BundleLimits, options?: Readonly<Record<string, LimitOption>>): LimitError | undefined {
  try {
    checkInputShape(
      value,
      { maxDepth: limits.maxDepth, maxListLength: limits.maxListLength, maxStringLength: limits.maxStringLength, maxObjectKeys: limits.maxObjectKeys },
      'signed',
    );
    return undefined;
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const hint = options === undefined ? undefined : overLimitHint(error.context, options);
    return {
      code: error.code,
      message: hint === undefined ? error.message : `${error.message}; ${hint}`,
      path: typeof error.context.path === 'string' ? error.context.path : null,
    };
  }
}

/**
 * Whether a document whose canonical text has this shape (`scanCanonicalJson`) passes {@link checkBundleShape}:
 * its sizes are within the limits and no string holds a lone surrogate. The text's sizes are the parsed
 * value's (a canonical text has no duplicate key), so the two agree; a shape that does not fit is walked by
 * {@link checkBundleShape}, which names the path at fault.
 *
 * @param shape - the shape of the document's canonical text
 * @param limits - the limits
 * @returns whether it fits
 * @example if (!fitsBundleLimits(shape, limits)) refused = checkBundleShape(value, limits)
 */
export function fitsBundleLimits(shape: CanonicalJsonTextShape, limits: BundleLimits): boolean {
  return (
    !shape.loneSurrogate &&
    shape.depth <= limits.maxDepth &&
    shape.longestList <= limits.maxListLength &&
    shape.longestString <= limits.maxStringLength &&
    shape.mostKeys <= limits.maxObjectKeys
  );
}
