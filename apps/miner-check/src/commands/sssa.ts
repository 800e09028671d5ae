import {
  canonicalFindingKey,
  computeConsensus,
  findingKeyPreimage,
  parseSssa,
  selectVerificationGroup,
  type ConsensusMemberInput,
  type Role,
} from '@subnet/consensus';
import { missingKeyHint } from '@subnet/cli-support';
import { encodeSs58, sha256Hex, SubnetError } from '@subnet/core';

import { fmt, section, table } from '../render.js';
import type { CommandOutput, ErrorContext } from './output.js';
import { MINER_CHECK_ERROR_CODES } from '../errors.js';

/** One document read from --sssa or --peers: a bare SSSA, or a member `{ uid, hotkey, role, sssa }`. */
interface SourceDocument {
  readonly value: unknown;
  readonly option: string;
  /** The file it was read from, as given on the command line (`-` for standard input). */
  readonly file?: string;
}

/** Inputs of `miner-check sssa`. */
export interface SssaCheckInput {
  /** This miner's document (bare SSSA or member object). */
  readonly self: SourceDocument;
  /** The other group members' documents, each file one document or an array of them. */
  readonly peers: readonly SourceDocument[];
  /** Identity for a bare --sssa document. */
  readonly uid: number;
  readonly hotkey?: string;
  readonly role: Role;
  /** The verification group draw, when asked for. */
  readonly draw?: {
    readonly blockHash: string;
    readonly taskId: string;
    readonly candidates: SourceDocument;
    readonly primaries: number;
    readonly auditors: number;
    readonly minReputation?: number;
  };
}

function isMember(value: unknown): value is { uid: unknown; hotkey: unknown; role?: unknown; sssa: unknown } {
  return typeof value === 'object' && value !== null && 'sssa' in value;
}

/**
 * A stand-in hotkey for a document that names none: the SS58 address of sha256(label). Consensus needs
 * an identity per member, but a miner's self-check result does not depend on which.
 */
function standInHotkey(label: string): string {
  return encodeSs58(Uint8Array.from(Buffer.from(sha256Hex(label), 'hex')));
}

/** How an error names where a document was read from: the option, and the file when known. */
function named(source: SourceDocument): string {
  return source.file === undefined ? source.option : `${source.option} (${source.file})`;
}

/**
 * The role a member object gives: its own `role` when it has the key (whatever the value: consensus checks it), else
 * `fallback`.
 */
function roleOf(document: { role?: unknown }, fallback: Role): Role {
  return (Object.hasOwn(document, 'role') ? document.role : fallback) as Role;
}

/** The group, as `groupOf` reads it. */
interface Group {
  readonly members: ConsensusMemberInput[];
  /** What each member was read from: the member object itself, or (for a bare document) the member made for it. */
  readonly read: unknown[];
  /** Where each member was read from: `--sssa (mine.json)`, `--peers[0] (peers.json), element 2`. */
  readonly sources: string[];
}

/** The group as `computeConsensus` numbers it: this miner first, then each --peers file's documents in order. */
function groupOf(input: SssaCheckInput): Group {
  const self = input.self.value;
  const members: ConsensusMemberInput[] = [
    isMember(self)
      ? { uid: self.uid as number, hotkey: self.hotkey as string, role: roleOf(self, input.role), sssa: self.sssa }
      : { uid: input.uid, hotkey: input.hotkey ?? standInHotkey('miner-check:self'), role: input.role, sssa: self },
  ];
  const read: unknown[] = [isMember(self) ? self : members[0]];
  const sources = [named(input.self)];
  let next = 0;
  for (const peer of input.peers) {
    const many = Array.isArray(peer.value);
    const documents = many ? (peer.value as unknown[]) : [peer.value];
    documents.forEach((document, i) => {
      next++;
      sources.push(many ? `${named(peer)}, element ${i}` : named(peer));
      if (isMember(document)) {
        members.push({ uid: document.uid as number, hotkey: document.hotkey as string, role: roleOf(document, 'primary'), sssa: document.sssa });
        read.push(document);
      } else {
        // Bare peer documents get uids after this miner's and stand-in hotkeys.
        members.push({ uid: 65535 - next, hotkey: standInHotkey(`miner-check:${peer.option}:${i}`), role: 'primary', sssa: document });
        read.push(members.at(-1));
      }
    });
  }
  return { members, read, sources };
}

/**
 * Refuses a member object that has no `role` but a key one slip away from it (`rol`, `Role`): the member would
 * silently take the default role. The error's path is `members[i].role`, so `report` names the key it has and the file.
 */
function refuseMisspeltRole(group: Group, fallback: Role): void {
  group.read.forEach((document, i) => {
    if (!isMember(document) || Object.hasOwn(document, 'role')) return;
    const path = `members[${i}].role`;
    if (missingKeyHint(path, { members: group.read }) === undefined) return;
    const given = i === 0 ? `${fallback} (--role)` : 'primary';
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, `the member object has no "role", so it would count as ${given}`, {
      context: { path, value: undefined },
    });
  });
}

/**
 * What an error of a check is read against: the documents by the labels its paths start with, `sssa` (this miner's
 * SSSA), `members` (the group, as `computeConsensus` names them) and `candidates` (the draw's), and where the group
 * member a path starts at (`members[5]`) was read from.
 */
export function sssaErrorContext(input: SssaCheckInput): ErrorContext {
  const { members, read, sources } = groupOf(input);
  return {
    documents: { sssa: members[0]?.sssa, members: read, ...(input.draw === undefined ? {} : { candidates: input.draw.candidates.value }) },
    sourceOf: (path) => {
      const member = /^members\[(\d+)\]/.exec(path);
      const found = member === null ? undefined : sources[Number(member[1])];
      return found === undefined ? undefined : `${member?.[0] ?? 'members'} is ${found}`;
    },
  };
}

/**
 * Where the group member at `index` (as `members[index]` in an error's path) was read from: `--sssa`, or the peers'
 * file and, for a file holding an array, the element: `--peers[0] (peers.json), element 2`.
 */
export function memberSource(input: SssaCheckInput, index: number): string | undefined {
  return groupOf(input).sources[index];
}

/**
 * Validates this miner's SSSA, shows its canonical finding keys and, with peers, the group sets and this
 * miner's seven consensus components, all computed by `@subnet/consensus`.
 */
export function sssaCheck(input: SssaCheckInput): CommandOutput {
  const built = groupOf(input);
  refuseMisspeltRole(built, input.role);
  const { members } = built;
  const [self] = members as [ConsensusMemberInput, ...ConsensusMemberInput[]];
  const sssa = parseSssa(self.sssa, 'sssa');
  const keys = sssa.findings.map((finding) => ({
    id: finding.id,
    key: canonicalFindingKey(finding),
    preimage: findingKeyPreimage(finding),
  }));

  const withPeers = input.peers.length > 0;
  const result = withPeers ? computeConsensus({ taskId: 'miner-check', members }) : undefined;
  const mine = result?.members.find((m) => m.uid === self.uid);
  if (withPeers && mine === undefined) {
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, 'this miner is missing from the computed group', {
      context: { path: '--sssa', value: self.uid },
    });
  }
  const c = mine?.components ?? null;
  const group = result?.group ?? null;

  const draw = input.draw === undefined ? undefined : drawGroup(input.draw);

  const json: Record<string, unknown> = {
    canonical_keys: keys,
    consensus: mine?.consensus ?? null,
    components:
      c === null
        ? null
        : {
            findings_recall: c.findingsRecall,
            findings_precision: c.findingsPrecision,
            verdict_agreement: c.verdictAgreement,
            capabilities_agreement: c.capabilitiesAgreement,
            risk_agreement: c.riskAgreement,
            dependencies_agreement: c.dependenciesAgreement,
            policy_agreement: c.policyAgreement,
          },
    group:
      group === null
        ? null
        : {
            n: group.n,
            majority: group.majority,
            finding_keys: group.findingKeys,
            verdict: group.verdict,
            verdict_counts: group.verdictCounts,
            capabilities: group.capabilities,
            risk_mean: group.riskMean,
            dependencies: group.dependencies,
            cves: group.cves,
            policy_rules: group.policyRules,
          },
  };
  if (draw !== undefined) json.verification_group = draw.json;

  const lines = [
    `SSSA: verdict ${sssa.verdict}, risk ${sssa.risk_score}, ${sssa.findings.length} findings, valid`,
    '',
    section(
      'Canonical finding keys',
      keys.length === 0
        ? '  (no findings)'
        : table(
            ['finding', 'key', 'category|severity|evidence|cves|target'],
            keys.map((k) => [k.id, k.key, k.preimage]),
          ),
    ),
  ];
  if (!withPeers) {
    lines.push('', 'No --peers given: consensus needs the other members of your group (at least 3 SSSAs in all).');
  } else if (group === null || c === null) {
    lines.push('', `The group has ${result?.n ?? 0} SSSAs: consensus is computed only for 3 or more, so the emission uses the neutral factor 1.`);
  } else {
    lines.push(
      '',
      section(
        `Group (n = ${group.n}, an item is in the group set when more than ${group.n / 2} members report it: ${group.majority} or more)`,
        table(
          ['set', 'value'],
          [
            [
              'verdict',
              `${group.verdict} (${Object.entries(group.verdictCounts)
                .map(([v, n]) => `${v} ${n}`)
                .join(', ')})`,
            ],
            ['finding keys', `${group.findingKeys.length}`],
            ['capabilities', group.capabilities.join(', ')],
            ['risk mean', fmt(group.riskMean)],
            ['dependencies', group.dependencies.map((d) => `${d.package}@${d.version}`).join(', ')],
            ['CVEs', group.cves.map((v) => `${v.package}@${v.version}:${v.cve}`).join(', ')],
            ['policy rules', `${group.policyRules.length}`],
          ],
        ),
      ),
      '',
      section(
        `Your consensus: ${fmt(mine?.consensus ?? 0)}`,
        table(
          ['component', 'weight', 'value'],
          [
            ['findings recall', '0.30', fmt(c.findingsRecall)],
            ['findings precision', '0.15', fmt(c.findingsPrecision)],
            ['verdict agreement', '0.15', fmt(c.verdictAgreement)],
            ['capabilities agreement', '0.15', fmt(c.capabilitiesAgreement)],
            ['risk agreement', '0.10', fmt(c.riskAgreement)],
            ['dependencies agreement', '0.10', fmt(c.dependenciesAgreement)],
            ['policy agreement', '0.05', fmt(c.policyAgreement)],
          ],
        ),
      ),
    );
  }
  if (draw !== undefined) lines.push('', draw.text);
  return { json, text: lines.join('\n') };
}

function drawGroup(draw: NonNullable<SssaCheckInput['draw']>): { json: Record<string, unknown>; text: string } {
  const raw = draw.candidates.value;
  if (!Array.isArray(raw)) {
    throw new SubnetError(MINER_CHECK_ERROR_CODES.invalidArgument, 'candidates must be an array of { uid, hotkey, reputation }', {
      context: { path: draw.candidates.option, value: raw },
    });
  }
  const candidates = raw.map((c: unknown) => {
    const { uid, hotkey } = (c ?? {}) as { uid?: unknown; hotkey?: unknown };
    return { uid: uid as number, hotkey: hotkey as string };
  });
  const reputations = Object.fromEntries(
    raw.map((c: unknown) => {
      const { hotkey, reputation } = (c ?? {}) as { hotkey?: unknown; reputation?: unknown };
      return [String(hotkey), reputation as number];
    }),
  );
  const group = selectVerificationGroup({
    candidates,
    reputations,
    blockHash: draw.blockHash,
    taskId: draw.taskId,
    primaries: draw.primaries,
    auditors: draw.auditors,
    ...(draw.minReputation === undefined ? {} : { filters: { minReputation: draw.minReputation } }),
  });
  const member = (m: { uid: number; hotkey: string; reputation: number; role: string }) => ({
    uid: m.uid,
    hotkey: m.hotkey,
    reputation: m.reputation,
    role: m.role,
  });
  const json = {
    task_id: group.taskId,
    block_hash: group.blockHash,
    seed: group.seed,
    primaries: group.primaries.map(member),
    auditors: group.auditors.map(member),
    eligible: group.eligible,
    excluded: group.excluded.map((e) => ({ uid: e.uid, hotkey: e.hotkey, reputation: e.reputation, reason: e.reason })),
    shortfall: group.shortfall,
  };
  const rows = [...group.primaries, ...group.auditors].map((m) => [m.role, `${m.uid}`, m.hotkey, fmt(m.reputation, 3)]);
  const text = section(
    `Verification group for task ${group.taskId} at block ${group.blockHash} (seed ${group.seed})`,
    [
      table(['role', 'uid', 'hotkey', 'reputation'], rows),
      `${group.eligible} eligible, ${group.excluded.length} excluded${group.shortfall.primaries + group.shortfall.auditors > 0 ? `, short by ${group.shortfall.primaries} primaries and ${group.shortfall.auditors} auditors` : ''}.`,
    ].join('\n'),
  );
  return { json, text };
}
