import { Keyring } from '@polkadot/api';

import { mapHotkeysToUids, toU16 } from '@subnet/aggregation';
import type { U16Mode } from '@subnet/aggregation';
import { buildBundle, signBundle, signedBundleText, signRevealAttestation, withRevealAttestation } from '@subnet/bundle';
import type { EpochComputation, SignedBundle, SignedBundleText, SubmissionRecord } from '@subnet/bundle';
import { canonicalJson, encodeSs58, hotkeySchema, sha256Hex } from '@subnet/core';

import { signatureVerifier } from '../signature-verifier.js';

/** Fixtures for the auditor tests and benchmarks (not a test file): realistic signed bundles. */

export type Pair = ReturnType<Keyring['addFromUri']>;

export interface Keys {
  readonly validator: Pair;
  readonly peers: readonly Pair[];
  readonly stranger: Pair;
}

export async function keys(): Promise<Keys> {
  await signatureVerifier(); // readies the sr25519 WebAssembly
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  return {
    validator: keyring.addFromUri('//Alice'),
    peers: [keyring.addFromUri('//Bob'), keyring.addFromUri('//Charlie')],
    stranger: keyring.addFromUri('//Eve'),
  };
}

/** A deterministic, checksum-valid miner hotkey (public key = sha256 of the label). */
export function minerHotkey(i: number): string {
  return encodeSs58(Buffer.from(sha256Hex(`miner-${i}`), 'hex'));
}

/** A small deterministic generator (the fixtures are reproducible, no Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A valid SSSA document with no findings (an auditor test's SSSA challenge needs a document, not its content). */
export const plainSssa = { verdict: 'ALLOW', risk_score: 0.2, findings: [], capabilities: ['fs.read'], dependencies: [], policy: { rules: [] } };

/**
 * Bundle inputs of one SSSA task `t-1` that every hotkey of `miners` answered with {@link plainSssa}: the task, the
 * candidates (uids from 1), their reputations (0.3, 0.4, … by sorted hotkey) and the submissions (seq from 10).
 */
export function sssaTaskInputs(miners: readonly string[]) {
  return {
    tasks: [{ task_id: 't-1', task_type: 'mcp_server', block_hash: `0x${'5a'.repeat(32)}`, seq: 1 }],
    candidates: miners.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
    reputations: [...miners].sort().map((hotkey, i) => ({ task_type: 'mcp_server', hotkey, reputation: 0.3 + 0.1 * i })),
    sssa_submissions: miners.map((hotkey, i) => ({ record_id: `s${i}`, seq: 10 + i, task_id: 't-1', miner_uid: i + 1, miner_hotkey: hotkey, sssa: plainSssa })),
  };
}

export const dryRun = { status: 'dry_run' as const, block: null, extrinsic_hash: null, call: null, error: null };

/**
 * A realistic epoch: a term pass-rate challenge (own results plus two peers' scores, stake-weighted, with
 * reward decay) and a bounty challenge, `miners` miners, three validators with stakes.
 */
export interface EpochOptions {
  readonly miners: number;
  readonly epoch: number;
  readonly seed?: number;
  readonly netuid?: number;
  /** Miner hotkeys to use instead of generated ones (e.g. a devnet's accounts). */
  readonly minerHotkeys?: readonly string[];
  /** The metagraph to record instead of the generated one. */
  readonly metagraph?: readonly { readonly hotkey: string; readonly uid: number }[];
}

export function epochInput(k: Keys, options: EpochOptions) {
  const rand = lcg(options.seed ?? options.epoch + 1);
  const miners = options.minerHotkeys ? [...options.minerHotkeys] : Array.from({ length: options.miners }, (_, i) => minerHotkey(i));
  const totalTasks = 8;
  const termResults = miners.map((hotkey, i) => ({
    record_id: `term-${options.epoch}-${i}`,
    seq: i,
    miner_hotkey: hotkey,
    results: Array.from({ length: 6 }, (_, t) => {
      const total = 1 + Math.floor(rand() * 4);
      const passed = rand() < 0.7 ? total : Math.floor(rand() * total);
      return { task_id: `task-${t}`, tests_passed: passed, tests_total: total, timed_out: rand() < 0.05 };
    }),
  }));
  const peerScores = k.peers.flatMap((peer, p) =>
    miners.map((hotkey) => ({
      record_id: `peer-${options.epoch}-${p}`,
      seq: 1000 + p,
      validator_hotkey: peer.address,
      challenge_id: 'term',
      miner_hotkey: hotkey,
      score: Math.round(rand() * 1000) / 1000,
    })),
  );
  const bountyRecords = miners
    .filter((_, i) => i % 3 === 0)
    .map((hotkey, i) => ({
      record_id: `bounty-${options.epoch}-${i}`,
      seq: i,
      miner_hotkey: hotkey,
      valid_issues: Math.floor(rand() * 25),
      invalid_issues: Math.floor(rand() * 4),
      starred_repos: Math.floor(rand() * 6),
    }));
  return {
    netuid: options.netuid ?? 1,
    config: {
      pipeline: { min_validators: 2, min_stake_fraction: 0.3 },
      challenges: [
        { id: 'term', kind: 'term_pass_rate' as const, alpha: 0.6, total_tasks: totalTasks, weight_cap: 0.5 },
        { id: 'bounty', kind: 'bounty' as const, alpha: 0.3 },
      ],
    },
    epoch: options.epoch,
    validatorHotkey: k.validator.address,
    inputs: {
      term_results: termResults,
      peer_scores: peerScores,
      bounty_records: bountyRecords,
      decay_states: [
        { challenge_id: 'term', state: { top_score: 0.9, top_epoch: Math.max(0, options.epoch - 12), top_hotkey: miners[0] ?? k.validator.address } },
      ],
    },
    stakes: [
      { validator_hotkey: k.validator.address, stake: '4000000000000' },
      ...k.peers.map((p, i) => ({ validator_hotkey: p.address, stake: String(2_000_000_000_000 + i * 500_000_000_000) })),
    ],
    metagraph: options.metagraph ?? [
      { hotkey: k.validator.address, uid: 0 },
      ...k.peers.map((p, i) => ({ hotkey: p.address, uid: i + 1 })),
      ...miners.map((hotkey, i) => ({ hotkey, uid: i + 1 + k.peers.length })),
    ],
  };
}

/** A signed bundle (as JSON on disk: a plain, mutable copy). */
export function signedBundle(k: Keys, options: EpochOptions & { readonly signer?: Pair }): SignedBundle {
  const bundle = buildBundle({ ...epochInput(k, options), submission: dryRun });
  return JSON.parse(JSON.stringify(signBundle(bundle, options.signer ?? k.validator))) as SignedBundle;
}

/** The parts of `result.aggregation` an earlier build's uid mapping wrote (wire form). */
interface AggregationWire {
  readonly config: { readonly burn_uid: number; readonly u16_mode: U16Mode };
  readonly burn: number;
  readonly allocation: { readonly miners: readonly { readonly hotkey: string }[] };
  readonly miners: readonly {
    readonly hotkey: string;
    readonly uid: number | null;
    readonly allocated: number;
    readonly mapped: number;
    readonly u16: number;
  }[];
}

/**
 * A signed bundle as a build before docs/spec.md G.4 "A hotkey missing from the metagraph takes no share of its
 * challenge" wrote it, for an epoch in which miner `deregistered` left the metagraph before the close while its
 * records stayed: that build consulted the metagraph only at the uid mapping, so every stage up to the
 * allocation is what today's pipeline computes with the hotkey listed; then the mapping (`mapHotkeysToUids`,
 * which still drops and renormalises as SPEC C.9 reads alone) dropped it and spread its share over the other
 * miners and the burn, and the u16 vector and each miner's `uid`, `mapped` and `u16` followed from that. The
 * inputs, stakes and metagraph (without the hotkey) are those of a current bundle; digest and signature are
 * the validator's.
 *
 * @returns the signed bundle, the dropped hotkey and the share it took in the allocation (what the mapping dropped)
 */
export function earlierRuleBundle(k: Keys, options: EpochOptions & { readonly deregistered: number }): { signed: SignedBundle; hotkey: string; share: number } {
  const input = epochInput(k, options);
  const hotkey = options.minerHotkeys?.[options.deregistered] ?? minerHotkey(options.deregistered);
  const metagraph = input.metagraph.filter((n) => n.hotkey !== hotkey);
  const listed = buildBundle({ ...input, submission: dryRun }).result;
  const aggregation = listed.aggregation as AggregationWire;
  const allocated = new Map(aggregation.miners.map((m) => [m.hotkey, m.allocated]));
  const mapping = mapHotkeysToUids({
    weights: aggregation.allocation.miners.map((m) => ({ hotkey: hotkeySchema.parse(m.hotkey), weight: allocated.get(m.hotkey) ?? 0 })),
    burn: aggregation.burn,
    metagraph: metagraph.map((n) => ({ hotkey: hotkeySchema.parse(n.hotkey), uid: n.uid })),
    burnUid: aggregation.config.burn_uid,
  });
  const u16 = toU16(mapping.weights, { mode: aggregation.config.u16_mode });
  const mappedOf = new Map(mapping.weights.map((w) => [w.uid, w.weight]));
  const u16Of = new Map(u16.uids.map((uid, i) => [uid, u16.weights[i] ?? 0]));
  const uidOf = new Map(metagraph.map((n) => [n.hotkey, n.uid]));
  const m = mapping.explanation;
  const result = {
    ...listed,
    aggregation: {
      ...aggregation,
      mapping: {
        dropped: m.dropped.map((d) => ({ hotkey: d.hotkey, weight: d.weight })),
        kept_mass: m.keptMass,
        renormalised: m.renormalised,
        all_to_burn: m.allToBurn,
        burn_uid: m.burnUid,
        uids: m.uids.map((u) => ({ hotkey: u.hotkey, uid: u.uid })),
      },
      uid_weights: mapping.weights.map((w) => ({ uid: w.uid, weight: w.weight })),
      u16: {
        mode: u16.explanation.mode,
        max_weight: u16.explanation.maxWeight,
        floor_sum: u16.explanation.floorSum,
        remainder_units: u16.explanation.remainderUnits === null ? null : [...u16.explanation.remainderUnits],
        dropped_zeros: [...u16.explanation.droppedZeros],
        all_zero: u16.explanation.allZero,
      },
      miners: aggregation.miners.map((miner) => {
        const uid = uidOf.get(miner.hotkey) ?? null;
        return { ...miner, uid, mapped: uid === null ? 0 : (mappedOf.get(uid) ?? 0), u16: uid === null ? 0 : (u16Of.get(uid) ?? 0) };
      }),
    },
    u16: { uids: [...u16.uids], weights: [...u16.weights] },
  } as unknown as EpochComputation;
  const bundle = buildBundle({ ...input, metagraph, result, submission: dryRun });
  const signed = JSON.parse(JSON.stringify(signBundle(bundle, k.validator))) as SignedBundle;
  return { signed, hotkey, share: allocated.get(hotkey) ?? 0 };
}

/** Re-signs a (tampered) bundle document with a key, like a dishonest validator would. */
export function resign(doc: { bundle: unknown }, signer: Pair): { bundle: unknown; digest: string; signature: string } {
  const d = sha256Hex(canonicalJson(doc.bundle));
  return { bundle: doc.bundle, digest: d, signature: `0x${Buffer.from(signer.sign(Buffer.from(d, 'hex'))).toString('hex')}` };
}

/** Every leaf (non-object, non-array value) under a value, with its path segments. */
export function leaves(value: unknown, base: (string | number)[] = []): { segments: (string | number)[]; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...base, i]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...base, k]));
  return [{ segments: base, value }];
}

/** Sets the value at a path (mutates). */
export function setAt(root: unknown, segments: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const s of segments.slice(0, -1)) node = node[s] as Record<string | number, unknown>;
  node[segments[segments.length - 1] as string | number] = value;
}

/** A value different from `value` that keeps the bundle schema-valid (u16 stays in range, integers stay integers). */
export function changed(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? (value >= 65535 ? value - 1 : value + 1) : value + 0.5;
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'boolean') return !value;
  return 1;
}

/** A commit-reveal v4 submission: the confirmed commit of epoch `options.epoch`'s weights in block 120. */
export const committedSubmission: SubmissionRecord = {
  status: 'submitted',
  block: '120',
  extrinsic_hash: `0x${'ab'.repeat(32)}`,
  call: 'SubtensorModule.commit_timelocked_mechanism_weights',
  error: null,
};

/** The text a validator signs at the close of a timelocked epoch (the commit as its submission). */
export function committedBundleText(k: Keys, options: EpochOptions): SignedBundleText {
  return signedBundleText(buildBundle({ ...epochInput(k, options), submission: committedSubmission }), k.validator);
}

/** A reveal attestation of `close` (revealed in block 131 unless `over` says otherwise), unsigned. */
export function revealAttestation(close: SignedBundleText, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'reveal_attestation',
    netuid: close.bundle.netuid,
    epoch: close.bundle.epoch,
    validator_hotkey: close.bundle.validator_hotkey,
    bundle_digest: close.digest,
    status: 'revealed',
    code: null,
    reason: null,
    reasons: [],
    message: `the chain revealed epoch ${close.bundle.epoch} in block 131`,
    commit_hash: `0x${'ee'.repeat(32)}`,
    commit_block: '120',
    commit_extrinsic_hash: `0x${'ab'.repeat(32)}`,
    reveal_round: '4242',
    due_block: '131',
    reveal_block: '131',
    reveal_block_hash: `0x${'cd'.repeat(32)}`,
    confirmed_at_head: '133',
    ...over,
  };
}

/** `close` as served once its reveal is known: with the attestation signed by the validator. */
export function attestedText(k: Keys, close: SignedBundleText, over: Record<string, unknown> = {}): string {
  return withRevealAttestation(close.text, signRevealAttestation(revealAttestation(close, over), k.validator));
}
