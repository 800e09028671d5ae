import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { LimitOption } from '@subnet/cli-support';
import { describeSystemError, formatPath, scanCanonicalJson, SubnetError } from '@subnet/core';

import type { BundleLimits } from './bundle-limits.js';
import { checkBundleBytes, checkBundleShape, DEFAULT_BUNDLE_LIMITS, fitsBundleLimits } from './bundle-limits.js';
import { duplicateKeyMessage, findDuplicateKey } from './duplicate-keys.js';
import { AUDITOR_ERROR_CODES } from './errors.js';

/** A bundle document read from disk, or why it could not be read. */
export type LoadedDocument =
  | {
      readonly source: string;
      readonly ok: true;
      readonly value: unknown;
      /** The file's text, as read. */
      readonly text: string;
      /** Whether the text, less JSON white space around it, is the canonical JSON of `value` (`scanCanonicalJson`). */
      readonly canonical: boolean;
    }
  | { readonly source: string; readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly path: string | null } };

/**
 * Orders file names with numbers compared as numbers (`epoch-2.json` before `epoch-10.json`).
 *
 * @param a - a name
 * @param b - another name
 * @returns negative, zero or positive, as for `Array.prototype.sort`
 * @example ['epoch-10.json', 'epoch-2.json'].sort(compareFileNames) // ['epoch-2.json', 'epoch-10.json']
 */
export function compareFileNames(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    if (x === y) continue;
    if (i % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * Expands the command-line operands into bundle files: a file is itself, a directory gives every `*.json`
 * file directly inside it, ordered by name with numbers compared as numbers.
 *
 * @param operands - files and directories
 * @param place - how an error names operand `i` (`BUNDLE[i]`, verify's operands; a reader of one folder names its option)
 * @returns the files in order (duplicates removed)
 * @throws SubnetError `AUDITOR_UNREADABLE` naming the operand that does not exist, cannot be listed, or is a
 *   folder without any `*.json` file
 * @example await expandOperands(['bundles/']) // ['bundles/epoch-1.json', 'bundles/epoch-2.json']
 */
export async function expandOperands(operands: readonly string[], place: (i: number) => string = (i) => `BUNDLE[${i}]`): Promise<readonly string[]> {
  const out: string[] = [];
  for (const [i, operand] of operands.entries()) {
    let info;
    try {
      info = await stat(operand);
    } catch (cause) {
      const reason = describeSystemError(cause);
      const advice =
        (cause as NodeJS.ErrnoException).code === 'ENOENT'
          ? "; give a bundle file or a folder of them (the folder auditor-replay fetch --out wrote, or a validator's bundles.dir)"
          : '';
      throw new SubnetError(AUDITOR_ERROR_CODES.unreadable, `cannot read ${operand}${reason === undefined ? '' : `: ${reason}`}${advice}`, {
        context: { path: place(i), value: operand },
        cause,
      });
    }
    if (info.isDirectory()) {
      const names = (await readdir(operand)).filter((n) => n.endsWith('.json')).sort(compareFileNames);
      // Nothing to verify is not a pass: a folder without bundles (a wrong path, a fetch that saved none)
      // must not end in "0 bundle(s) ... exit 0".
      if (names.length === 0)
        throw new SubnetError(
          AUDITOR_ERROR_CODES.unreadable,
          "this folder holds no *.json bundle file; give the folder auditor-replay fetch --out wrote, or a validator's bundles.dir",
          { context: { path: place(i), value: operand } },
        );
      out.push(...names.map((n) => join(operand, n)));
    } else out.push(operand);
  }
  return Object.freeze([...new Set(out)]);
}

/**
 * Reads and JSON-parses one bundle file. Never throws: an unreadable file or malformed JSON is returned
 * as an error (`AUDITOR_UNREADABLE`, `AUDITOR_MALFORMED_JSON`), and so is a file over the size limits
 * (`CORE_INPUT_TOO_LARGE` before it is read, `CORE_INPUT_TOO_DEEP` / `_TOO_LARGE` / `_NOT_JSON` after it
 * is parsed), so one bad file does not stop the others.
 *
 * @param file - the path
 * @param limits - the size limits (default {@link DEFAULT_BUNDLE_LIMITS})
 * @param options - the options that set them, named after a refusal for going over one (`checkBundleBytes`); none when
 *   they are not the command line's
 * @returns the document or the error
 * @example const doc = await loadDocument('epoch-7.json'); if (doc.ok) audit(doc.value)
 */
export async function loadDocument(
  file: string,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
  options?: Readonly<Record<string, LimitOption>>,
): Promise<LoadedDocument> {
  const read = await readBundleText(file, limits, options);
  return typeof read === 'string' ? parseBundleText(file, read, limits, options) : read;
}

/**
 * Reads one bundle file's text, refusing it before reading when it is over `maxBytes` (the first half of
 * {@link loadDocument}). Never throws.
 *
 * @param file - the path
 * @param limits - the size limits
 * @param options - the options that set them, named after a refusal for going over `maxBytes` (`checkBundleBytes`)
 * @returns the text, or the failed document (`AUDITOR_UNREADABLE`, `CORE_INPUT_TOO_LARGE`)
 * @example const text = await readBundleText('epoch-7.json', DEFAULT_BUNDLE_LIMITS)
 */
export async function readBundleText(
  file: string,
  limits: BundleLimits,
  options?: Readonly<Record<string, LimitOption>>,
): Promise<string | Extract<LoadedDocument, { ok: false }>> {
  try {
    const info = await stat(file);
    // A pipe no one writes would hold the run forever, a device such as /dev/zero fill memory (docs/spec.md G.13).
    // A folder under the name fails below as before (EISDIR).
    const notAFile = info.isDirectory() ? undefined : notRegularFile(info);
    if (notAFile !== undefined)
      return {
        source: file,
        ok: false,
        error: {
          code: AUDITOR_ERROR_CODES.unreadable,
          message: `cannot read ${file}: it is ${notAFile}, not a regular file; a bundle is read from a regular file only, so nothing was read`,
          path: null,
        },
      };
    const tooLarge = checkBundleBytes(file, info.size, limits, options);
    if (tooLarge !== undefined) return { source: file, ok: false, error: tooLarge };
    return await readFile(file, 'utf8');
  } catch (error) {
    return {
      source: file,
      ok: false,
      // The OS reason as the operands' errors word it (`EISDIR (illegal operation on a directory)`), without Node's
      // repeat of the path.
      error: { code: AUDITOR_ERROR_CODES.unreadable, message: `cannot read ${file}: ${describeSystemError(error) ?? (error as Error).message}`, path: null },
    };
  }
}

/**
 * What a path is when it is not a regular file (after following links), in words, else undefined.
 *
 * @param info - the path's `stat`
 * @returns `a named pipe (FIFO)`, `a character device`, ... or undefined for a regular file
 * @example notRegularFile(statSync('/dev/zero')) // 'a character device'
 */
export function notRegularFile(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a folder';
  return 'not a file';
}

/**
 * Parses a bundle file's text and checks its shape (the second half of {@link loadDocument}). Never throws.
 *
 * @param file - the path (named in messages)
 * @param text - its text
 * @param limits - the size limits
 * @param options - the options that set them, named after a refusal for going over one (`checkBundleShape`)
 * @returns the document or the error (`AUDITOR_MALFORMED_JSON`, an empty file said to be empty; `CORE_INPUT_TOO_DEEP` / `_TOO_LARGE` / `_NOT_JSON`)
 * @example const doc = parseBundleText('epoch-7.json', text, DEFAULT_BUNDLE_LIMITS)
 */
export function parseBundleText(file: string, text: string, limits: BundleLimits, options?: Readonly<Record<string, LimitOption>>): LoadedDocument {
  // JSON.parse's "Unexpected end of JSON input" for a file with nothing in it (a fetch cut short, a file created by
  // mistake): say so.
  const [start, end] = jsonBounds(text);
  if (start === end) {
    const what = text === '' ? 'is empty' : 'holds only white space';
    return {
      source: file,
      ok: false,
      error: { code: AUDITOR_ERROR_CODES.malformed, message: `${file} ${what}: there is no JSON in it, so no signed bundle`, path: null },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { source: file, ok: false, error: { code: AUDITOR_ERROR_CODES.malformed, message: `${file} is not JSON: ${(error as Error).message}`, path: null } };
  }
  // A canonical text (what validators publish) shows its sizes to the scan that proves it canonical; the
  // walk of the parsed value runs when it is not canonical or does not fit, and names what is at fault.
  const shape = scanCanonicalJson(text, start, end);
  const refused = shape !== undefined && fitsBundleLimits(shape, limits) ? undefined : checkBundleShape(value, limits, options);
  if (refused !== undefined) return { source: file, ok: false, error: refused };
  // A key named twice in one object: readers differ on the value, so the file shows two documents (docs/spec.md G.17).
  // A canonical text never repeats one (its scan takes keys strictly increasing).
  const repeated = shape === undefined ? findDuplicateKey(text) : undefined;
  if (repeated !== undefined)
    return {
      source: file,
      ok: false,
      error: {
        code: AUDITOR_ERROR_CODES.invalidBundle,
        message: `[${AUDITOR_ERROR_CODES.invalidBundle}] ${duplicateKeyMessage(repeated)}`,
        path: repeated.path.length === 0 ? null : formatPath(repeated.path),
      },
    };
  return { source: file, ok: true, value, text, canonical: shape !== undefined };
}

/**
 * Where the JSON of a text starts and ends, less the JSON white space around it (space, tab, CR, LF).
 *
 * @param text - a JSON text
 * @returns the start and end indexes
 * @example jsonBounds(' {} \n') // [1, 3]
 */
export function jsonBounds(text: string): [number, number] {
  let start = 0;
  let end = text.length;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
  return [start, end];
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Reads again the bundles of a report that parsed (for the HTML report's miner pages): `signed.bundle` of
 * each source whose audit has weights. A file that can no longer be read is left out.
 *
 * @param sources - the audits' sources with weights
 * @returns source -> bundle (wire JSON)
 * @example renderHtmlReport(report, { bundles: await loadBundles(report.bundles.filter((a) => a.weights).map((a) => a.source)) })
 */
export async function loadBundles(sources: readonly string[]): Promise<ReadonlyMap<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const source of sources) {
    const doc = await loadDocument(source);
    if (doc.ok && typeof doc.value === 'object' && doc.value !== null && Object.hasOwn(doc.value, 'bundle'))
      out.set(source, (doc.value as { bundle: unknown }).bundle);
  }
  return out;
}
