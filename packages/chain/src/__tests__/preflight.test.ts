import { describe, expect, it } from 'vitest';

import type { MetagraphSnapshot } from '../metagraph-snapshot.js';
import { preflight } from '../preflight.js';

const hotkeys = [
  '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
  '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y',
];
const snap = (over: Partial<MetagraphSnapshot> = {}, hp: Partial<MetagraphSnapshot['hyperparameters']> = {}): MetagraphSnapshot => ({
  netuid: 1,
  mecid: 0,
  netuidIndex: 1,
  block: 100n,
  blockHash: '0x',
  n: 3,
  hotkeys,
  coldkeys: hotkeys,
  stakes: [10n, 10n, 0n],
  stakeWeights: [],
  stakeSource: 'storage',
  validatorPermit: [true, false, false],
  lastUpdate: [0n, 0n, 0n],
  blockAtRegistration: [0n, 0n, 0n],
  axons: [null, null, null],
  incentive: null,
  dividends: null,
  trust: null,
  consensus: null,
  ownerHotkey: null,
  hyperparameters: {
    tempo: 360,
    weightsRateLimit: 100n,
    weightsVersionKey: 0n,
    minAllowedWeights: 1,
    stakeThreshold: 5n,
    commitRevealEnabled: false,
    commitRevealVersion: 2,
    revealPeriodEpochs: 1n,
    mechanismCount: 1,
    ...hp,
  },
  epoch: { subnetEpochIndex: 0n, lastEpochBlock: 0n, pendingEpochAt: 0n, blocksSinceLastStep: 0n },
  runtimeVersion: { specName: 'node-subtensor', specVersion: 425 },
  ...over,
});
const codes = (r: ReturnType<typeof preflight>): string[] => r.errors.map((e) => e.code);

describe('preflight replicates internal_set_weights in the chain order (README 2.2)', () => {
  it('passes a valid submission', () => {
    expect(preflight({ snapshot: snap(), hotkey: hotkeys[0]!, uids: [1, 2], values: [1, 2], versionKey: 0n, kind: 'set' }).ok).toBe(true);
  });
  it('reports failures in the chain order: stake, version key, rate limit, permit, duplicates, uid range, length', () => {
    const r = preflight({
      snapshot: snap({ stakes: [10n, 1n, 0n], lastUpdate: [0n, 50n, 0n] }, { weightsVersionKey: 3n, minAllowedWeights: 5 }),
      hotkey: hotkeys[1]!,
      uids: [0, 0, 9],
      values: [1, 1, 1],
      versionKey: 2n,
      kind: 'set',
    });
    expect(codes(r)).toEqual([
      'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS',
      'CHAIN_INCORRECT_WEIGHT_VERSION_KEY',
      'CHAIN_SETTING_WEIGHTS_TOO_FAST',
      'CHAIN_NEURON_NO_VALIDATOR_PERMIT',
      'CHAIN_DUPLICATE_UIDS',
      'CHAIN_UID_VEC_CONTAIN_INVALID_ONE',
    ]);
    expect(r.nextAllowedBlock).toBe(150n);
  });
  it('version key rule is >=, not ==', () => {
    expect(preflight({ snapshot: snap({}, { weightsVersionKey: 3n }), hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 4n, kind: 'set' }).ok).toBe(
      true,
    );
  });
  it('rate limit: allowed exactly when head + 1 - LastUpdate >= WeightsSetRateLimit', () => {
    const at = (block: bigint) =>
      preflight({ snapshot: snap({ block, lastUpdate: [50n, 0n, 0n] }), hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'set' });
    expect(codes(at(148n))).toEqual(['CHAIN_SETTING_WEIGHTS_TOO_FAST']);
    expect(at(149n).ok).toBe(true);
  });
  it('on the legacy runtime at finney spec 393 the owner needs stake and a permit', () => {
    const legacyEpoch = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: 0n };
    const s = snap(
      { ownerHotkey: hotkeys[2]!, epoch: legacyEpoch, runtimeVersion: { specName: 'node-subtensor', specVersion: 393 } },
      { minAllowedWeights: 2 },
    );
    expect(codes(preflight({ snapshot: s, hotkey: hotkeys[2]!, uids: [0, 1], values: [1, 1], versionKey: 0n, kind: 'set' }))).toEqual([
      'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS',
      'CHAIN_NEURON_NO_VALIDATOR_PERMIT',
    ]);
  });
  it('G.33: with legacy epochs the owner is exempt from spec 397 on (node-subtensor), not at 396 nor under another spec name', () => {
    const legacyEpoch = { subnetEpochIndex: null, lastEpochBlock: null, pendingEpochAt: null, blocksSinceLastStep: 0n };
    const ownerSets = (specName: string, specVersion: number) =>
      codes(
        preflight({
          snapshot: snap({ ownerHotkey: hotkeys[2]!, epoch: legacyEpoch, runtimeVersion: { specName, specVersion } }, { minAllowedWeights: 2 }),
          hotkey: hotkeys[2]!,
          uids: [0, 1],
          values: [1, 1],
          versionKey: 0n,
          kind: 'set',
        }),
      );
    const refused = ['CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS', 'CHAIN_NEURON_NO_VALIDATOR_PERMIT'];
    expect(ownerSets('node-subtensor', 396)).toEqual(refused);
    expect(ownerSets('node-subtensor', 397)).toEqual([]);
    expect(ownerSets('node-subtensor', 400)).toEqual([]);
    expect(ownerSets('node-subtensor', 422)).toEqual([]);
    expect(ownerSets('another-chain', 400)).toEqual(refused);
    // the exemption is the owner's alone: another hotkey without stake or permit is refused at spec 400
    const other = preflight({
      snapshot: snap(
        { ownerHotkey: hotkeys[2]!, epoch: legacyEpoch, runtimeVersion: { specName: 'node-subtensor', specVersion: 400 } },
        { minAllowedWeights: 2 },
      ),
      hotkey: hotkeys[1]!,
      uids: [0, 2],
      values: [1, 1],
      versionKey: 0n,
      kind: 'set',
    });
    expect(codes(other)).toEqual(['CHAIN_NEURON_NO_VALIDATOR_PERMIT']);
  });
  it('G.33: a snapshot without a runtime version is CHAIN_INVALID_INPUT at snapshot.runtimeVersion when the owner is judged', () => {
    const { runtimeVersion: _dropped, ...bare } = snap({ ownerHotkey: hotkeys[2]! });
    expect(() => preflight({ snapshot: bare as MetagraphSnapshot, hotkey: hotkeys[2]!, uids: [0, 1], values: [1, 1], versionKey: 0n, kind: 'set' })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'snapshot.runtimeVersion', value: undefined }) }),
    );
  });
  it('stakeCheck warn moves the stake failure to warnings and lets the rest pass', () => {
    const r = preflight({ snapshot: snap(), hotkey: hotkeys[2]!, uids: [2], values: [1], versionKey: 0n, kind: 'set', stakeCheck: 'warn' });
    expect([r.ok, codes(r), r.warnings.map((w) => w.code)]).toEqual([true, [], ['CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS']]);
  });
  it('exempts the owner from stake and permit (stateful runtime), and a single self-weight from permit and length', () => {
    const s = snap({ ownerHotkey: hotkeys[2]! }, { minAllowedWeights: 2 });
    expect(preflight({ snapshot: s, hotkey: hotkeys[2]!, uids: [0, 1], values: [1, 1], versionKey: 0n, kind: 'set' }).ok).toBe(true);
    expect(preflight({ snapshot: snap({}, { minAllowedWeights: 2 }), hotkey: hotkeys[1]!, uids: [1], values: [1], versionKey: 0n, kind: 'set' }).ok).toBe(true);
  });
  it('an unregistered hotkey fails with HotKeyNotRegisteredInSubNet; commit-reveal routes are checked', () => {
    expect(
      codes(preflight({ snapshot: snap(), hotkey: '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy', uids: [1], values: [1], versionKey: 0n, kind: 'set' })),
    ).toEqual(['CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET']);
    expect(
      codes(preflight({ snapshot: snap({}, { commitRevealEnabled: true }), hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'set' })),
    ).toEqual(['CHAIN_COMMIT_REVEAL_ENABLED']);
    expect(
      codes(
        preflight({
          snapshot: snap({ lastUpdate: [99n, 0n, 0n] }, { commitRevealEnabled: true }),
          hotkey: hotkeys[0]!,
          uids: [1],
          values: [1],
          versionKey: 0n,
          kind: 'commit',
        }),
      ),
    ).toEqual(['CHAIN_COMMITTING_WEIGHTS_TOO_FAST']);
  });
  it('a v2 commit with 10 unrevealed commits queued fails with TooManyUnrevealedCommits; expired ones are popped from the front only (weights.rs:121)', () => {
    // stateful, epoch 5 at head 100 (tempo 360, last epoch block 90): a commit epoch e is expired iff 5 > e + 1
    const s = snap({ epoch: { subnetEpochIndex: 5n, lastEpochBlock: 90n, pendingEpochAt: 0n, blocksSinceLastStep: 10n } }, { commitRevealEnabled: true });
    const commit = (queuedCommitEpochs: bigint[]) =>
      codes(preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'commit', queuedCommitEpochs }));
    const nine = Array.from({ length: 9 }, () => 5n);
    expect(commit(nine)).toEqual([]);
    expect(commit([5n, ...nine])).toEqual(['CHAIN_TOO_MANY_UNREVEALED_COMMITS']);
    // epoch 3 is expired (5 > 4), epoch 4 is not (5 > 5 is false): the boundary is the chain's `>`
    expect(commit([3n, ...nine])).toEqual([]);
    expect(commit([4n, ...nine])).toEqual(['CHAIN_TOO_MANY_UNREVEALED_COMMITS']);
    // an expired commit behind an unexpired one stays in the queue, as the chain pops only from the front
    expect(commit([...nine, 3n])).toEqual(['CHAIN_TOO_MANY_UNREVEALED_COMMITS']);
    // a direct set and a reveal never read the queue; without the list the check is not run
    expect(
      codes(preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'reveal', queuedCommitEpochs: [5n, ...nine] })),
    ).toEqual([]);
    expect(codes(preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'commit' }))).toEqual([]);
    expect(() =>
      preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'commit', queuedCommitEpochs: [1] as unknown as bigint[] }),
    ).toThrow(expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'queuedCommitEpochs' }) }));
  });
  it("a timelocked commit with 10 of the hotkey's commits in the epoch's queue fails with TooManyUnrevealedCommits (weights.rs:357)", () => {
    const s = snap({}, { commitRevealEnabled: true, commitRevealVersion: 4 });
    const commit = (timelockedCommitCount: number) =>
      codes(preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'commit', timelockedCommitCount }));
    expect(commit(9)).toEqual([]);
    expect(commit(10)).toEqual(['CHAIN_TOO_MANY_UNREVEALED_COMMITS']);
    expect(() => preflight({ snapshot: s, hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'commit', timelockedCommitCount: -1 })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'timelockedCommitCount' }) }),
    );
  });
});

describe('preflight: a negative uid, and an empty stakeCheck', () => {
  it('uid -1 is UidVecContainInvalidOne at its index', () => {
    const r = preflight({ snapshot: snap(), hotkey: hotkeys[0]!, uids: [1, -1], values: [1, 1], versionKey: 0n, kind: 'set' });
    expect(r.errors.map((e) => [e.code, e.context['path']])).toEqual([['CHAIN_UID_VEC_CONTAIN_INVALID_ONE', 'uids[1]']]);
  });
  it("stakeCheck '' is refused as not 'error' or 'warn' (not read as the default)", () => {
    expect(() => preflight({ snapshot: snap(), hotkey: hotkeys[0]!, uids: [1], values: [1], versionKey: 0n, kind: 'set', stakeCheck: '' as never })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'stakeCheck' }) }),
    );
  });
});
