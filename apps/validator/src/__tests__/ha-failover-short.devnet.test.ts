/**
 * High availability on PostgreSQL, end to end, in every test command (issue 17, item 1): three validator
 * CLI processes on one PostgreSQL database and a devnet; the leader is killed with SIGKILL four times over
 * two epochs: during the first epoch's submission (its extrinsic already in the node's pool: it lands
 * after the kill and the next leader must find it, not send it again) and after it, then before the
 * second's (the new leader closes it) and during it (the node drops the extrinsic: it never lands and is
 * sent again once its era proves it). Checked as in the long run (`ha-failover-harness.ts`):
 * every epoch submitted exactly once (counted in the devnet's blocks), no acknowledged record lost, each
 * takeover within two chain polls, and bundles equal to a single instance's. Skipped only without
 * PostgreSQL (and failing in CI without it).
 */
import { PG_SKIP_REASON, PG_URL, requirePostgresInCi } from './helpers.js';
import { haFailoverSuite } from './ha-failover-harness.js';

requirePostgresInCi();

haFailoverSuite({
  name: 'HA on PostgreSQL, short run: SIGKILL the leader of three CLI processes on the devnet before, during and after submissions',
  skip: PG_URL === undefined ? PG_SKIP_REASON : undefined,
  // 80 blocks of 300 ms: a 24 s epoch. A dropped submission is proven not landed 24 blocks (era 8 plus the
  // reconciliation margin 16) after its claim, and must be sent again before the epoch after it ends.
  epoch: 80,
  era: 8,
  blockTimeMs: 300,
  pollMs: 2000,
  cycles: [
    ['during', 'after'],
    ['before', 'during'],
  ],
  timeoutMs: 360_000,
});
