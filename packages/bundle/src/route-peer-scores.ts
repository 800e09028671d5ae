import { compareHotkeys } from './hotkey-order.js';

import type { EpochConfig } from './epoch-config.js';
import type { PeerScoreRecord } from './epoch-inputs.js';
import { BUNDLE_ERROR_CODES } from './errors.js';
import type { Exclusions } from './exclusion.js';

/**
 * Routes peer scores to their evaluation challenge (SPEC C.2, C.4), excluding with a reason: a challenge
 * id that is not an evaluation challenge here, a score under this validator's own hotkey, a peer outside
 * the epoch's validator set, and a second score of one peer for one miner in one challenge (the earliest
 * by seq counts).
 *
 * @param peers - the screened peer scores, by seq
 * @param config - the configuration
 * @param self - this validator's hotkey
 * @param validators - hotkeys of the epoch's validator set
 * @param excluded - where exclusions go
 * @returns usable peer scores per challenge id
 */
export function routePeerScores(
  peers: readonly PeerScoreRecord[],
  config: EpochConfig,
  self: string,
  validators: ReadonlySet<string>,
  excluded: Exclusions,
): Map<string, PeerScoreRecord[]> {
  const evaluationIds = new Set(config.challenges.filter((c) => c.kind !== 'bounty').map((c) => c.id));
  const routed = new Map<string, PeerScoreRecord[]>();
  // Seen (validator, challenge, miner) triples, nested by validator and challenge: lookups of the record's
  // own strings instead of a concatenated key per score.
  const seen = new Map<string, Map<string, Set<string>>>();
  for (const p of peers) {
    if (!evaluationIds.has(p.challenge_id)) {
      excluded.add(
        'peer_scores',
        p,
        BUNDLE_ERROR_CODES.challengeNotConfigured,
        `no evaluation challenge ${JSON.stringify(p.challenge_id)} runs on this validator`,
      );
      continue;
    }
    if (p.validator_hotkey === self) {
      excluded.add('peer_scores', p, BUNDLE_ERROR_CODES.ownPeerScore, "a peer score signed by this validator's own hotkey is not a peer's");
      continue;
    }
    if (!validators.has(p.validator_hotkey)) {
      excluded.add('peer_scores', p, BUNDLE_ERROR_CODES.peerNotAValidator, "the peer is not in the epoch's validator set");
      continue;
    }
    let byChallenge = seen.get(p.validator_hotkey);
    if (byChallenge === undefined) seen.set(p.validator_hotkey, (byChallenge = new Map<string, Set<string>>()));
    let miners = byChallenge.get(p.challenge_id);
    if (miners === undefined) byChallenge.set(p.challenge_id, (miners = new Set<string>()));
    if (miners.has(p.miner_hotkey)) {
      excluded.add(
        'peer_scores',
        p,
        BUNDLE_ERROR_CODES.duplicatePeerScore,
        'this peer already scored this miner in this challenge this epoch; a second score is rejected, not averaged',
      );
      continue;
    }
    miners.add(p.miner_hotkey);
    const list = routed.get(p.challenge_id) ?? [];
    list.push(p);
    routed.set(p.challenge_id, list);
  }
  for (const list of routed.values())
    list.sort((a, b) => compareHotkeys(a.miner_hotkey, b.miner_hotkey) || compareHotkeys(a.validator_hotkey, b.validator_hotkey)); // validated hotkeys
  return routed;
}
