import type { Storage } from './storage.js';

/**
 * When peer scores count (docs/spec.md G.4 "Peer scores count one epoch late").
 *
 * A peer knows its scores of epoch E only once it has closed E, that is after E ended, when this validator
 * is in E+1 already (or still in E for a moment, if it reads the head a little later than the peer). So a
 * peer document scoring epoch E is aggregated in this validator's close of E+1, whenever it arrives: while
 * the receiver is still in E or once it is in E+1. Later than that the close of E+1 has run (or is running)
 * and cannot take it; an epoch after the receiver's current one is not closed by anyone yet.
 */

/** The answer of {@link peerScoresTarget}: the epoch whose close aggregates the document, or why none does. */
export type PeerScoresTarget =
  | { readonly ok: true; readonly closeEpoch: number }
  | { readonly ok: false; readonly reason: 'too_late' | 'too_early' | 'not_ready'; readonly message: string };

/**
 * Decides which close aggregates a peer document of `documentEpoch`, given the epoch this validator is in:
 * `documentEpoch + 1` when `documentEpoch` is the current epoch or the one that just ended, else a refusal.
 *
 * @param documentEpoch - the epoch the peer's scores are of (`epoch` of the document)
 * @param currentEpoch - the epoch this validator assigns records to now (undefined before the first head)
 * @returns `{ ok: true, closeEpoch }`, or `{ ok: false, reason, message }` naming the accepted epochs
 * @example peerScoresTarget(41, 42) // { ok: true, closeEpoch: 42 }
 */
export function peerScoresTarget(documentEpoch: number, currentEpoch: number | undefined): PeerScoresTarget {
  if (currentEpoch === undefined) return { ok: false, reason: 'not_ready', message: 'the chain head is not known yet' };
  const accepted = currentEpoch === 0 ? 'epoch 0' : `epochs ${currentEpoch - 1} and ${currentEpoch}`;
  if (documentEpoch === currentEpoch || documentEpoch === currentEpoch - 1) return { ok: true, closeEpoch: documentEpoch + 1 };
  if (documentEpoch < currentEpoch)
    return {
      ok: false,
      reason: 'too_late',
      message: `peer scores of epoch ${documentEpoch} are too late: they counted in the close of epoch ${documentEpoch + 1}, which has run; this validator is in epoch ${currentEpoch} and takes scores of ${accepted}`,
    };
  return {
    ok: false,
    reason: 'too_early',
    message: `peer scores of epoch ${documentEpoch} are from an epoch that has not begun here; this validator is in epoch ${currentEpoch} and takes scores of ${accepted}`,
  };
}

/**
 * Admits a peer document in a running service: {@link peerScoresTarget}, a refusal too when the close of the
 * target epoch has already run here (an instance that read the head late, under HA), then the decision again
 * from the current epoch and, in the same synchronous turn, `write(closeEpoch)`. A close begins by moving the
 * current epoch on and then draining the write queue, so a write queued in that turn is in the records it reads.
 *
 * @param service - the epoch records go to now, and the stored epoch rows
 * @param documentEpoch - the epoch the peer's scores are of
 * @param write - queues the record for the close of `closeEpoch` (called at most once, synchronously)
 * @returns `{ ok: true, written }` with what `write` returned, or the refusal
 * @example const admitted = await admitPeerScores({ storage, currentEpoch: () => 42 }, 41, (closeEpoch) => queue.submit({ ...record, epoch: closeEpoch }))
 */
export async function admitPeerScores<R>(
  service: { readonly storage: Pick<Storage, 'getEpochHead'>; currentEpoch(): number | undefined },
  documentEpoch: number,
  write: (closeEpoch: number) => R,
): Promise<{ readonly ok: true; readonly written: R } | Extract<PeerScoresTarget, { ok: false }>> {
  const first = peerScoresTarget(documentEpoch, service.currentEpoch());
  if (!first.ok) return first;
  if ((await service.storage.getEpochHead(first.closeEpoch)) !== undefined)
    return {
      ok: false,
      reason: 'too_late',
      message: `peer scores of epoch ${documentEpoch} are too late: the close of epoch ${first.closeEpoch}, which would count them, has run`,
    };
  const now = peerScoresTarget(documentEpoch, service.currentEpoch());
  if (!now.ok) return now;
  return { ok: true, written: write(now.closeEpoch) };
}
