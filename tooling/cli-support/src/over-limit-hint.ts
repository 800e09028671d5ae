/** The option of a CLI that sets one size limit, and the largest value it takes. */
export interface LimitOption {
  /** The option, as typed (`--max-list-length`). */
  readonly flag: string;
  /** The largest value the option takes. */
  readonly most: number;
}

/**
 * What to say under a size-limit error: the option that sets the limit the input went over, with its value now and
 * whether it can be raised. The error is `@subnet/core`'s `checkInputShape` refusal (`CORE_INPUT_TOO_LARGE`,
 * `CORE_INPUT_TOO_DEEP`), whose context names the limit (`limitName`, `maxListLength`) and its value (`limit`).
 *
 * @param context - the error's context
 * @param options - the CLI's option for each limit it sets, by limit name (`maxListLength`)
 * @returns the sentence, or undefined when the context names no limit the CLI has an option for
 * @example overLimitHint({ limitName: 'maxListLength', limit: 3 }, { maxListLength: { flag: '--max-list-length', most: 100000 } })
 *   // 'the limit is --max-list-length 3: raise it (at most 100000) to allow more'
 */
export function overLimitHint(context: Readonly<Record<string, unknown>>, options: Readonly<Record<string, LimitOption>>): string | undefined {
  const name = context.limitName;
  const limit = context.limit;
  if (typeof name !== 'string' || typeof limit !== 'number' || !Object.hasOwn(options, name)) return undefined;
  const option = options[name] as LimitOption;
  return limit < option.most
    ? `the limit is ${option.flag} ${limit}: raise it (at most ${option.most}) to allow more`
    : `the limit is ${option.flag} ${limit}, the most it can be`;
}
