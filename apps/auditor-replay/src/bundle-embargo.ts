import { readCappedBody } from './read-capped-body.js';

/** The most bytes of a 425 answer's body read for its details (a validator's is a few hundred). */
const MAX_EMBARGO_BODY_BYTES = 64 * 1024;

/** The HTTP status a validator answers for an embargoed bundle (425 Too Early, code `BUNDLE_EMBARGOED`). */
export const EMBARGO_STATUS = 425;

/** What a validator said about an embargoed bundle. */
export interface BundleEmbargo {
  readonly epoch: number;
  /** The block the chain reveals the epoch's weights at, as the validator predicted it (null when not said). */
  readonly revealBlock: string | null;
  /** The drand round of the commit (null when not said). */
  readonly revealRound: string | null;
  /**
   * Who reveals the weights: `timelock` (the chain, commit-reveal v4) or `hash` (the validator, commit-reveal v2, from
   * the window opening at `revealBlock`); null when not said (validators before that field: read as `timelock`).
   */
  readonly scheme: 'timelock' | 'hash' | null;
  /**
   * The earlier epoch whose embargo holds this one (`held_by`, docs/spec.md G.23): its bundle carries that epoch's
   * scores and state; the reveal fields above are that epoch's. Null when not said (the epoch's own embargo).
   */
  readonly heldBy: number | null;
  /** Seconds to wait (`Retry-After`), null when not said. */
  readonly retryAfterSeconds: number | null;
  /** When to try again (now + `Retry-After`), ISO 8601; null when not said. */
  readonly retryAt: string | null;
}

/**
 * Reads a validator's 425 `BUNDLE_EMBARGOED` answer: on a commit-reveal subnet the bundle of an epoch is withheld
 * until its weights are revealed, by the chain (v4, docs/spec.md G.6) or by the validator (v2, G.22). Fields the answer lacks are null,
 * and so are all of them when its body is over 64 KiB (it is not read further).
 *
 * @param response - the HTTP answer (status 425)
 * @param epoch - the epoch asked for
 * @param nowMs - the clock, for `retryAt`
 * @returns the embargo
 * @example if (response.status === EMBARGO_STATUS) report(await readEmbargo(response, 7, Date.now()))
 */
export async function readEmbargo(response: Response, epoch: number, nowMs: number): Promise<BundleEmbargo> {
  let body: { error?: { reveal_block?: unknown; reveal_round?: unknown; scheme?: unknown; held_by?: unknown } } = {};
  try {
    // The validator is not trusted: the details are read up to a small cap (a longer body is not read, they are then null).
    const bytes = await readCappedBody(response, MAX_EMBARGO_BODY_BYTES);
    body = bytes === undefined ? {} : ((JSON.parse(new TextDecoder().decode(bytes)) as typeof body | null) ?? {});
  } catch {
    body = {};
  }
  const header = response.headers.get('retry-after');
  const seconds = header !== null && /^\d{1,9}$/.test(header.trim()) ? Number(header.trim()) : null;
  const heldBy = body.error?.held_by;
  const text = (v: unknown): string | null => (typeof v === 'string' && /^\d{1,30}$/.test(v) ? v : null);
  return Object.freeze({
    epoch,
    revealBlock: text(body.error?.reveal_block),
    revealRound: text(body.error?.reveal_round),
    scheme: body.error?.scheme === 'hash' || body.error?.scheme === 'timelock' ? body.error.scheme : null,
    // An earlier epoch only: anything else is left out, not guessed.
    heldBy: typeof heldBy === 'number' && Number.isSafeInteger(heldBy) && heldBy >= 0 && heldBy < epoch ? heldBy : null,
    retryAfterSeconds: seconds,
    retryAt: seconds === null ? null : new Date(nowMs + seconds * 1000).toISOString(),
  });
}

/**
 * One line for an embargoed epoch: "embargoed until the chain reveals epoch N's weights (block B, drand round R); try after T",
 * or, on a commit-reveal v2 subnet, "embargoed until the validator reveals epoch N's commit-reveal v2 weights (from block B); …";
 * an epoch held for an earlier one's embargo (G.23) leads with "held: it carries the scores of epoch E, " and names E
 * (or says E's submission is not settled yet).
 *
 * @param embargo - the embargo
 * @returns the sentence
 * @example embargoSentence(embargo)
 */
export function embargoSentence(embargo: BundleEmbargo): string {
  if (embargo.heldBy !== null) {
    // No scheme with held_by: the earlier epoch's submission is not settled yet (still `submitting`).
    if (embargo.scheme === null) {
      const when = embargo.retryAt === null ? 'try again later' : `try after ${embargo.retryAt} (${embargo.retryAfterSeconds} s)`;
      return `held: it carries the scores of epoch ${embargo.heldBy}, whose submission is not settled yet; ${when}`;
    }
    return `held: it carries the scores of epoch ${embargo.heldBy}, ${embargoSentence({ ...embargo, epoch: embargo.heldBy, heldBy: null })}`;
  }
  const where = [
    embargo.revealBlock === null ? null : `block ${embargo.revealBlock}`,
    embargo.revealRound === null ? null : `drand round ${embargo.revealRound}`,
  ]
    .filter((x) => x !== null)
    .join(', ');
  const when = embargo.retryAt === null ? 'try again later' : `try after ${embargo.retryAt} (${embargo.retryAfterSeconds} s)`;
  if (embargo.scheme === 'hash') {
    const from = embargo.revealBlock === null ? '' : ` (from block ${embargo.revealBlock})`;
    return `embargoed until the validator reveals epoch ${embargo.epoch}'s commit-reveal v2 weights${from}; ${when}`;
  }
  return `embargoed until the chain reveals epoch ${embargo.epoch}'s commit-reveal weights${where === '' ? '' : ` (${where})`}; ${when}`;
}
