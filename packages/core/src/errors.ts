/**
 * The one coded error type of subnet-scoring.
 *
 * Every failure a package reports is a {@link SubnetError}: a stable string `code` that callers branch
 * on (codes are append-only), a typed `context`, a message that names the field path and the offending
 * value, and the underlying `cause`. Recognise errors with {@link isSubnetError}, never `instanceof`:
 * two copies of `@subnet/core` in one dependency tree give two different classes, but the same brand.
 */

const BRAND = Symbol.for('@subnet/core/SubnetError');

/** The context every error carries; packages add their own fields. */
export interface SubnetErrorContext {
  /** Where in the input the problem is, as a dotted path (`plan.edges[2].to`), when it is about input. */
  readonly path?: string;
  /** The offending value, as given (never a secret: callers must not pass secrets here). */
  readonly value?: unknown;
  readonly [key: string]: unknown;
}

/** Options accepted by the {@link SubnetError} constructor. */
export interface SubnetErrorOptions<C extends SubnetErrorContext = SubnetErrorContext> {
  readonly context?: C;
  readonly cause?: unknown;
}

/**
 * A coded error.
 *
 * @example
 * throw new SubnetError('COMPOSITE_INVALID_DAG', 'edge points at an unknown node', {
 *   context: { path: 'plan.edges[0].to', value: 'x' },
 * });
 */
export class SubnetError<C extends SubnetErrorContext = SubnetErrorContext> extends Error {
  /** Stable machine-readable code, e.g. `COMPOSITE_INVALID_DAG`. */
  readonly code: string;
  /** Structured details: the field path and value for input errors, chain names for chain errors. */
  readonly context: C;
  /** The brand that {@link isSubnetError} recognises across package copies. */
  readonly [BRAND] = true;

  /**
   * @param code - the stable code (upper snake case, prefixed by the package: `CORE_`, `COMPOSITE_`, ...)
   * @param summary - what went wrong, in words; the path and value from `context` are appended
   * @param options - `context` and `cause`
   */
  constructor(code: string, summary: string, options: SubnetErrorOptions<C> = {}) {
    const context = (options.context ?? {}) as C;
    super(formatMessage(code, summary, context), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SubnetError';
    this.code = code;
    this.context = context;
  }
}

/**
 * Each package's error codes and their context types, filled in by declaration merging: a package declares
 * `declare module '@subnet/core' { interface SubnetErrorContextByCode extends MyContextByCode {} }` next to its
 * codes, and {@link isSubnetError} with such a code then narrows `error.context` to that code's context.
 * Empty here: `@subnet/core` knows no other package.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface SubnetErrorContextByCode {}

/**
 * Tells whether `error` is a {@link SubnetError}, optionally with a given code. Works across duplicate
 * copies of this package (it checks a global brand, not the class).
 *
 * @param error - anything caught
 * @param code - when given, the error must also carry exactly this code
 * @returns true when `error` is a SubnetError (with that code)
 * @example
 * try { parse(x) } catch (e) { if (isSubnetError(e, 'COMPOSITE_INVALID_DAG')) report(e.context.path) }
 */
export function isSubnetError<K extends Extract<keyof SubnetErrorContextByCode, string>>(
  error: unknown,
  code: K,
): error is SubnetError<SubnetErrorContextByCode[K] & SubnetErrorContext> & { readonly code: K };
export function isSubnetError(error: unknown, code?: string): error is SubnetError;
export function isSubnetError(error: unknown, code?: string): error is SubnetError {
  if (typeof error !== 'object' || error === null) return false;
  const branded = (error as Record<symbol, unknown>)[BRAND] === true;
  if (!branded || typeof (error as { code?: unknown }).code !== 'string') return false;
  return code === undefined || (error as { code: string }).code === code;
}

function formatMessage(code: string, summary: string, context: SubnetErrorContext): string {
  const where = context.path === undefined ? '' : ` at ${context.path === '' ? '(root)' : context.path}`;
  const what = 'value' in context ? ` (got ${describeValue(context.value)})` : '';
  return `[${code}] ${summary}${where}${what}`;
}

/**
 * A short, safe, single-line rendering of a value for error messages: NaN, Infinity, -0, bigint and
 * undefined are spelled out (JSON would hide them), long values are cut at 80 characters.
 *
 * @param value - any value
 * @returns its rendering
 * @example describeValue(Number.NaN) // 'NaN'
 */
export function describeValue(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'number') text = Object.is(value, -0) ? '-0' : String(value);
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'function') text = '[function]';
  else if (typeof value === 'symbol') text = value.toString();
  else {
    try {
      const json = JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v}n`;
        if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
        return v;
      }) as string | undefined;
      text = json ?? Object.prototype.toString.call(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
