/** The one spelling of an epoch in a URL's path or query: `0`, or 1-15 decimal digits without a leading zero. */
const EPOCH_SPELLING = /^(?:0|[1-9][0-9]{0,14})$/;

/**
 * Why an epoch sent in a URL (`GET /v1/epochs/{n}/bundle`, `GET /pages/miners/:hotkey?epoch=N`) is not the one
 * spelling the API takes (docs/spec.md G.42 (a)): each epoch has one, as a timestamp header (G.39) and a number in the
 * configuration (G.27) do, so `01` is not a second name of epoch 1. The caller adds where it was sent and the value.
 *
 * @param value - the parameter as the request carried it (a query parameter sent twice is a list)
 * @returns undefined for the one spelling, else the cause in words (with what to write for a leading zero)
 * @example epochSpellingProblem('01') // 'the epoch is written with a leading zero (write 1: an epoch has one spelling)'
 */
export function epochSpellingProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && EPOCH_SPELLING.test(value)) return undefined;
  const digits = typeof value === 'string' && /^0[0-9]+$/.test(value) ? value.replace(/^0+(?=[0-9])/, '') : undefined;
  return digits !== undefined && EPOCH_SPELLING.test(digits)
    ? `the epoch is written with a leading zero (write ${digits}: an epoch has one spelling)`
    : 'the epoch is a non-negative integer in 1-15 decimal digits without a leading zero';
}
