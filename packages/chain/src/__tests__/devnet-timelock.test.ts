/**
 * Commit-reveal v4 end to end on the devnet (its own drand beacon, manual blocks, short tempo): setWeights
 * commits a timelocked payload, the chain reveals it in on_initialize, the client confirms the reveal and
 * reads back Weights; the silent failures are reported as typed errors.
 */
import { buildMetadata, runtimeVersionOf, SS58_PREFIX } from '@subnet/devnet';
import type { DevnetRuntime } from '@subnet/devnet';
import { encryptWeightsCommit, QUICKNET } from '@subnet/timelock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createChainClient } from '../chain-client.js';
import type { TimelockSubmissionInfo } from '../client-types.js';
import { loadSigner } from '../keys.js';
import { readMetagraph } from '../metagraph.js';
import { submitExtrinsic } from '../submit-extrinsic.js';
import { prepareTimelockedCommit, timelockedCommitCall, timelockedCommitRecord } from '../timelock-commit.js';
import type { TimelockedCommitRecord } from '../timelock-commit.js';
import { readTimelockContext } from '../timelock-context.js';
import { predictRevealRound } from '../timelock-round.js';
import type { Harness, Runtime } from './devnet-helpers.js';
import { RUNTIMES, startHarness } from './devnet-helpers.js';

const TEMPO = 20;

/**
 * Commits (uid 0's hotkey, mechanism 0 of subnet 1) the weight `{uid: 1}` encrypted to the round the devnet beacon
 * publishes in block `publishedIn`, included in the next block; returns its record.
 */
async function commitToRoundOf(h: Harness, uid: number, publishedIn: bigint): Promise<TimelockedCommitRecord> {
  const { signer, connection } = h.client;
  const snapshot = await readMetagraph(connection, { netuid: 1 });
  const context = await readTimelockContext(connection, snapshot.blockHash);
  const round = h.devnet.beacon!.roundAtBlock(Number(publishedIn));
  const commit = encryptWeightsCommit({ hotkeyPublicKey: signer.publicKey, uids: [uid], values: [1], versionKey: 0n, round, beacon: context.beacon });
  const inclusion = await h.includeNext(
    submitExtrinsic(connection, signer, (api) => timelockedCommitCall(api, 0).build(1, commit.commit, round), {
      wait: 'inBlock',
      eraPeriod: 64,
      timeoutMs: 8_000,
      pollMs: 15,
      label: 'hand-built commit',
    }),
  );
  return timelockedCommitRecord(inclusion, {
    hotkey: signer.address,
    netuid: 1,
    mecid: 0,
    netuidIndex: 1,
    uid: 0,
    uids: [uid],
    values: [1],
    versionKey: 0n,
    revealRound: round,
    commit: commit.commit,
    prediction: null,
  });
}

describe.each(RUNTIMES)('commit-reveal v4 on the devnet, %s runtime', { timeout: 60_000 }, (runtime) => {
  let h: Harness;
  beforeAll(async () => {
    // one pulse per 12 s block keeps the beacon cheap; the client reads the period from Drand.BeaconConfig
    h = await startHarness({
      runtime,
      neurons: 8,
      validators: 4,
      tempo: TEMPO,
      commitReveal: true,
      weightsSetRateLimit: 0n,
      mechanismCount: 2,
      beacon: { period: 12 },
    });
    await h.devnet.produceBlock();
  });
  afterAll(async () => {
    await h.close();
  });

  it('setWeights commits to the predicted round, the chain reveals it, the client confirms TimelockedWeightsRevealed and reads back Weights', async () => {
    const before = await h.nonceOf(h.client.signer.address);
    const result = await h.includeThenDrive(h.client.setWeights({ netuid: 1, weights: { '2': 1, '3': 3 } }), 40);
    expect(result.kind).toBe('reveal');
    expect(result.call).toBe('SubtensorModule.commit_timelocked_mechanism_weights');
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n); // one extrinsic: the commit; the chain reveals
    const tl = result.timelock!;
    expect(tl.beaconSource).toBe('chain');
    expect(tl.record.prediction?.schedule).toBe(runtime);
    expect(tl.commitEpoch).toBe(tl.record.prediction!.commitEpoch);
    expect(tl.revealBlock).toBe(tl.record.prediction!.revealBlock);
    const reveal = tl.reveal!;
    // revealed inside the reveal epoch, once the round's pulse was stored (target block = reveal block + 3)
    expect(reveal.blockNumber).toBeGreaterThanOrEqual(tl.record.prediction!.revealBlock);
    expect(reveal.blockNumber).toBeLessThanOrEqual(tl.record.prediction!.targetBlock + 1n);
    expect(result.blockNumber).toBe(reveal.blockNumber);
    expect(result.stored).toEqual([21845, 65535]);
    const at = await h.client.connection.api.at(reveal.blockHash);
    expect((await at.query['subtensorModule']!['weights']!(1, 0)).toJSON()).toEqual([
      [2, 21845],
      [3, 65535],
    ]);
    const beforeReveal = await h.client.connection.api.at(await h.client.connection.api.rpc.chain.getBlockHash(reveal.blockNumber - 1n));
    expect((await beforeReveal.query['subtensorModule']!['weights']!(1, 0)).toJSON()).toEqual([]);
    expect(h.devnet.timelockDrops()).toEqual([]);
  });

  it("mechanism 1: the round is predicted on the subnet's epochs (plain netuid), the chain reveals it in the predicted reveal block's epoch", async () => {
    const result = await h.includeThenDrive(h.client.setWeights({ netuid: 1, mecid: 1, weights: { '1': 1, '6': 1 } }), 40);
    expect(result.kind).toBe('reveal');
    const tl = result.timelock!;
    expect(tl.record.netuidIndex).toBe(4097);
    const reveal = tl.reveal!;
    expect(reveal.blockNumber).toBeGreaterThanOrEqual(tl.record.prediction!.revealBlock);
    expect(reveal.blockNumber).toBeLessThanOrEqual(tl.record.prediction!.targetBlock + 1n);
    const at = await h.client.connection.api.at(reveal.blockHash);
    expect((await at.query['subtensorModule']!['weights']!(4097, 0)).toJSON()).toEqual([
      [1, result.stored[0]],
      [6, result.stored[1]],
    ]);
  });

  it('a commit held out of the pool past the epoch boundary: commitEpoch is the later one, a warning says how long its round is public before the reveal, and the reveal is confirmed an epoch late', async () => {
    const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const client = await createChainClient({
      network: h.devnet.url,
      signer: await h.signerFor(0),
      staleHeadMs: 0,
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
      requestTimeoutMs: 5_000,
      logger: { warn: (message, fields) => warnings.push({ message, fields }) },
    });
    try {
      // What the client will predict: no block is produced until its commit is held.
      const snapshot = await readMetagraph(client.connection, { netuid: 1 });
      const expected = predictRevealRound(snapshot, await readTimelockContext(client.connection, snapshot.blockHash));
      h.devnet.faults.delayNextExtrinsic(1_000);
      const work = client.setWeights({ netuid: 1, weights: { '7': 1 }, waitForReveal: false });
      await h.untilHeld(work); // the client read its snapshot and sent the commit
      // While the delay holds it, the chain reaches the block before the reveal block, where the next epoch begins
      // (a commit there is filed under the next epoch; its round, for the reveal block + 3, is not stored yet).
      await h.devnet.produceBlocks(Number(expected.revealBlock) - 1 - h.devnet.bestNumber());
      const result = await h.includeThenDrive(work, 40);
      const tl = result.timelock!;
      const predicted = tl.record.prediction!;
      expect(predicted.commitEpoch).toBe(expected.commitEpoch);
      expect(tl.record.commitBlock).toBe(expected.revealBlock);
      expect(tl.commitEpoch).toBe(predicted.commitEpoch + 1n);
      const epochBlocks = runtime === 'stateful' ? TEMPO : TEMPO + 1; // run_coinbase.rs:1085 at 14bc6f9f9; legacy (tempo + 1)
      const exposed = epochBlocks - 3;
      expect(warnings.map((w) => w.message)).toEqual([
        `timelocked commit landed in block ${tl.record.commitBlock}, epoch ${predicted.commitEpoch + 1n}, not epoch ${predicted.commitEpoch} as predicted: ` +
          `the chain reveals it in epoch ${predicted.revealEpoch + 1n}, about ${exposed} blocks (${Math.round((exposed * 12) / 60)} min at tempo ${TEMPO}) after its drand round ` +
          `${tl.record.revealRound} is published, and anyone can decrypt these weights in between`,
      ]);
      expect(warnings[0]?.fields).toMatchObject({ commitEpoch: predicted.commitEpoch + 1n, predictedCommitEpoch: predicted.commitEpoch });
      // The reveal block returned is the late epoch's: the chain reveals there (its round is long stored), an epoch after the prediction.
      expect(tl.revealBlock).toBe(predicted.revealBlock + BigInt(epochBlocks));
      expect(warnings[0]?.fields).toMatchObject({ revealBlock: tl.revealBlock });
      const reveal = await h.drive(client.confirmTimelockedReveal(tl.record), 40);
      expect(reveal.commitEpoch).toBe(predicted.commitEpoch + 1n);
      expect(reveal.blockNumber).toBe(tl.revealBlock);
    } finally {
      await client.close();
    }
  });

  it('detects the silent failure of a version key raised between commit and reveal: CHAIN_TIMELOCK_REVEAL_MISSING (version_key_raised)', async () => {
    const validator = h.client;
    const committed = await h.drive(validator.setWeights({ netuid: 1, weights: { '4': 1 }, waitForReveal: false }), 40);
    expect(committed.kind).toBe('commit');
    expect(committed.timelock?.reveal).toBeNull();
    h.devnet.setHyperparameter('weightsVersionKey', 7n);
    try {
      await expect(h.drive(validator.confirmTimelockedReveal(committed.timelock!.record), 40)).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { stage: 'confirm', likelyReasons: ['version_key_raised'], checks: ['IncorrectWeightVersionKey'], pulseStored: true },
      });
      expect(h.devnet.timelockDrops().map((d) => [d.reason, d.detail])).toEqual([['weights_check', 'IncorrectWeightVersionKey']]);
    } finally {
      h.devnet.setHyperparameter('weightsVersionKey', 0n);
      await h.devnet.produceBlock();
    }
  });

  it("commit-reveal turned off between commit and reveal: the reveal's checks are a direct set's (rate limit, no commit-reveal flag), as do_set_mechanism_weights runs them", async () => {
    // reveal_commits.rs:181 calls do_set_mechanism_weights, which checks no commit-reveal flag and applies the
    // set_weights rate limit when commit-reveal is off at the reveal block (weights.rs:804, both at 14bc6f9f9)
    const validator = h.client;
    const committed = await h.drive(validator.setWeights({ netuid: 1, weights: { '5': 1 }, waitForReveal: false }), 40);
    expect(committed.kind).toBe('commit');
    h.devnet.setHyperparameter('commitRevealEnabled', false);
    h.devnet.setHyperparameter('weightsSetRateLimit', 1000n);
    const drops = h.devnet.timelockDrops().length;
    try {
      await expect(h.drive(validator.confirmTimelockedReveal(committed.timelock!.record), 40)).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { stage: 'confirm', likelyReasons: ['other_weights_check'], checks: ['SettingWeightsTooFast'], pulseStored: true },
      });
      expect(
        h.devnet
          .timelockDrops()
          .slice(drops)
          .map((d) => [d.reason, d.detail]),
      ).toEqual([['weights_check', 'SettingWeightsTooFast']]);
    } finally {
      h.devnet.setHyperparameter('commitRevealEnabled', true);
      h.devnet.setHyperparameter('weightsSetRateLimit', 0n);
      await h.devnet.produceBlock();
    }
  });

  it('detects a hand-built commit whose payload hotkey is not the signer: CHAIN_TIMELOCK_REVEAL_MISSING (hotkey_mismatch)', async () => {
    const signer = h.client.signer; // uid 0
    const other = await loadSigner({ kind: 'uri', uri: '//Bob' }); // the payload names another hotkey
    const connection = h.client.connection;
    const snapshot = await readMetagraph(connection, { netuid: 1 });
    const context = await readTimelockContext(connection, snapshot.blockHash);
    const { commit } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: other.publicKey, uids: [5], values: [1], versionKey: 0n });
    const inclusion = await h.drive(
      submitExtrinsic(connection, signer, (api) => timelockedCommitCall(api, 0).build(1, commit.commit, commit.round), {
        wait: 'inBlock',
        eraPeriod: 64,
        timeoutMs: 8_000,
        pollMs: 15,
        label: 'hand-built commit',
      }),
      40,
    );
    const record = timelockedCommitRecord(inclusion, {
      hotkey: signer.address,
      netuid: 1,
      mecid: 0,
      netuidIndex: 1,
      uid: 0,
      uids: [5],
      values: [1],
      versionKey: 0n,
      revealRound: commit.round,
      commit: commit.commit,
      prediction: null,
    });
    const drops = h.devnet.timelockDrops().length;
    expect(h.devnet.accounts[0]!.hotkeyAddress).toBe(signer.address);
    await expect(h.drive(h.client.confirmTimelockedReveal(record), 40)).rejects.toMatchObject({
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      context: { likelyReasons: ['hotkey_mismatch', 'undecryptable'], checks: [], pulseStored: true },
    });
    expect(
      h.devnet
        .timelockDrops()
        .slice(drops)
        .map((d) => d.reason),
    ).toEqual(['hotkey_mismatch']);
  });

  it('a commit whose reveal epoch passed before its pulse could be used is reported expired (not hotkey_mismatch / undecryptable): reveal_commits.rs:53-58 deletes the queue unread', async () => {
    // Three commits of one hotkey in one epoch E, hand-built to rounds the devnet beacon publishes in chosen blocks
    // (one pulse per 12 s block; a pulse published in block k is read by the reveal step of block k + 1). `last` is
    // the last block whose reveal step takes epoch E's queue: the round published in `last - 1` is revealed in
    // `last`; the one published in `last` is stored when block `last + 1` starts epoch E + 2 and deletes the queue
    // unread; the one published later is not even stored then.
    const signer = h.client.signer;
    const connection = h.client.connection;
    const snapshot = await readMetagraph(connection, { netuid: 1 });
    const context = await readTimelockContext(connection, snapshot.blockHash);
    const { prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: signer.publicKey, uids: [1], values: [1], versionKey: 0n });
    // first reveal-step block of epoch E + 1 plus its length: tempo blocks (stateful) or tempo + 1 (legacy)
    const last = prediction.revealBlock + BigInt(runtime === 'stateful' ? TEMPO - 1 : TEMPO);
    const commitTo = (uid: number, publishedIn: bigint): Promise<TimelockedCommitRecord> => commitToRoundOf(h, uid, publishedIn);
    const inTime = await commitTo(1, last - 1n);
    const lastBlock = await commitTo(2, last);
    const late = await commitTo(3, last + 3n);
    expect(inTime.commitBlock).toBeLessThan(prediction.revealBlock); // all three in epoch E
    expect(late.commitBlock).toBeLessThan(prediction.revealBlock);

    const revealed = await h.drive(h.client.confirmTimelockedReveal(inTime), 15);
    expect(revealed.blockNumber).toBe(last);
    await expect(h.drive(h.client.confirmTimelockedReveal(lastBlock), 15)).rejects.toMatchObject({
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      context: {
        revealBlock: last + 1n,
        commitEpoch: revealed.commitEpoch,
        revealEpoch: revealed.commitEpoch + 1n,
        likelyReasons: ['expired'],
        pulseStored: true,
      },
    });
    await expect(h.drive(h.client.confirmTimelockedReveal(late), 15)).rejects.toMatchObject({
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      context: { revealBlock: last + 1n, likelyReasons: ['expired', 'pulse_missing'], pulseStored: false },
    });
  });

  it("refuses, before signing, a configured beacon whose key is not the chain's (CHAIN_TIMELOCK_BEACON_MISMATCH)", async () => {
    const quicknetClient = await createChainClient({ connection: h.client.connection, signer: h.client.signer, timelock: { beacon: QUICKNET } });
    const before = await h.nonceOf(h.client.signer.address);
    await expect(quicknetClient.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_TIMELOCK_BEACON_MISMATCH',
      context: { stage: 'preflight', path: 'timelock.beacon.publicKey' },
    });
    expect(await h.nonceOf(h.client.signer.address)).toBe(before);
  });

  it("a hotkey swap between commit and reveal: the chain reveals the commit as its signer, which holds no uid, and the client says hotkey_swapped (not deregistered) with the uid's new hotkey", async () => {
    // swap_hotkey moves the neuron with its BlockAtRegistration but not a timelocked commit (swap/swap_hotkey.rs:467-512
    // at 14bc6f9f9), and the reveal step sets weights as the signer (coinbase/reveal_commits.rs:181)
    const validator = h.client; // uid 0
    const committed = await h.drive(validator.setWeights({ netuid: 1, weights: { '6': 1 }, waitForReveal: false }), 40);
    const record = committed.timelock!.record;
    const newHotkey = (await loadSigner({ kind: 'uri', uri: '//SwappedValidator' })).address;
    h.devnet.swapHotkey(validator.signer.address, newHotkey);
    await h.devnet.produceBlock();
    const drops = h.devnet.timelockDrops().length;
    try {
      const missing = h.drive(validator.confirmTimelockedReveal(record), 40);
      await expect(missing).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { likelyReasons: ['hotkey_swapped'], checks: ['HotKeyNotRegisteredInSubNet'], uidHolder: { uid: 0, hotkey: newHotkey } },
      });
      const error = (await missing.catch((e: unknown) => e)) as Error & { context: { uidHolder: { registeredAt: bigint } } };
      expect(error.context.uidHolder.registeredAt).toBeLessThan(record.commitBlock);
      expect(error.message).toContain(
        `(likely: hotkey_swapped: uid 0 moved from ${validator.signer.address} to ${newHotkey} by a hotkey swap after the commit (block ${record.commitBlock}), ` +
          `and the chain reveals a timelocked commit as the hotkey that signed it, which held no uid then; set weights from ${newHotkey}) at reveal`,
      );
      expect(
        h.devnet
          .timelockDrops()
          .slice(drops)
          .map((d) => [d.reason, d.detail]),
      ).toEqual([['weights_check', 'HotKeyNotRegisteredInSubNet']]);
    } finally {
      h.devnet.swapHotkey(newHotkey, validator.signer.address);
      await h.devnet.produceBlock();
    }
  });

  it('a registration that takes the uid between commit and reveal: deregistered, with the uid, its new hotkey and the registration block', async () => {
    const client = await createChainClient({ network: h.devnet.url, signer: await h.signerFor(1), staleHeadMs: 0, pollMs: 15, inclusionTimeoutMs: 8_000 });
    try {
      const committed = await h.drive(client.setWeights({ netuid: 1, weights: { '6': 1 }, waitForReveal: false }), 40);
      const record = committed.timelock!.record;
      const newHotkey = (await loadSigner({ kind: 'uri', uri: '//NewRegistration' })).address;
      h.devnet.replaceNeuron(1, newHotkey);
      await h.devnet.produceBlock();
      const registeredAt = BigInt(h.devnet.bestNumber());
      const missing = h.drive(client.confirmTimelockedReveal(record), 40);
      await expect(missing).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { likelyReasons: ['deregistered'], checks: ['HotKeyNotRegisteredInSubNet'], uidHolder: { uid: 1, hotkey: newHotkey, registeredAt } },
      });
      expect(((await missing.catch((e: unknown) => e)) as Error).message).toContain(
        `(likely: deregistered: uid 1 was given to ${newHotkey} by a registration in block ${registeredAt}; register again to set weights) at reveal`,
      );
    } finally {
      await client.close();
    }
  });
});

describe.each(RUNTIMES)('timelocked commits per epoch on the devnet, %s runtime', { timeout: 60_000 }, (runtime) => {
  it("an 11th commit in one epoch's queue is refused by preflight with TooManyUnrevealedCommits: nothing signed (weights.rs:357)", async () => {
    const h = await startHarness({ runtime, neurons: 8, validators: 4, tempo: 100, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
    try {
      await h.devnet.produceBlock();
      for (let i = 0; i < 10; i += 1) {
        const commit = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '2': 1, '3': 1 + i }, waitForReveal: false }));
        expect(commit.kind).toBe('commit');
      }
      const nonce = await h.nonceOf(h.client.signer.address);
      await expect(h.client.setWeights({ netuid: 1, weights: { '2': 1 }, waitForReveal: false })).rejects.toMatchObject({
        code: 'CHAIN_TOO_MANY_UNREVEALED_COMMITS',
        context: { stage: 'preflight', value: 10 },
      });
      expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);
      expect(h.devnet.poolSize()).toBe(0);
    } finally {
      await h.close();
    }
  });
});

describe('a tempo changed while the commit is held: spec 393 renumbers the epochs', { timeout: 60_000 }, () => {
  /**
   * A legacy devnet at tempo 20, 30 blocks in; the client's commit is held while the owner sets the tempo to `tempo`
   * (from the next block on), then included. Gives the commit, its warnings and the harness (closed by the caller once
   * this returns).
   */
  async function heldAcrossTempoChange(tempo: number) {
    const warnings: string[] = [];
    const h = await startHarness(
      { runtime: 'legacy', neurons: 8, validators: 4, tempo: TEMPO, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } },
      0,
      { logger: { warn: (message) => warnings.push(message) } },
    );
    let tl: TimelockSubmissionInfo;
    try {
      await h.devnet.produceBlocks(30);
      h.devnet.faults.delayNextExtrinsic(1_000);
      const work = h.client.setWeights({ netuid: 1, weights: { '7': 1 }, waitForReveal: false });
      await h.untilHeld(work); // the client read its snapshot and sent the commit
      h.devnet.setHyperparameter('tempo', tempo);
      await h.devnet.produceBlock(); // the owner's call: the new tempo holds from the next block on
      tl = (await h.includeThenDrive(work, 40)).timelock!;
    } catch (error) {
      await h.close();
      throw error;
    }
    const predicted = tl.record.prediction!;
    const renumbered =
      `timelocked commit landed in block ${tl.record.commitBlock}, epoch ${tl.commitEpoch}, not epoch ${predicted.commitEpoch} as predicted: ` +
      `the subnet's epochs were renumbered since the prediction (a tempo change?), so the chain reveals it in its epoch ${tl.commitEpoch! + 1n}, ` +
      `from block ${tl.revealBlock} (tempo ${tempo} at the commit block), not at the predicted block ${predicted.revealBlock}`;
    return { h, tl, predicted, warnings, renumbered };
  }

  it('commitEpoch is below the prediction, a warning says the epochs were renumbered, and the reveal is confirmed where the chain takes it', async () => {
    // Past block 30, (block + 2) / (tempo + 1) is 1 or more at tempo 20 and 0 at tempo 100.
    const { h, tl, predicted, warnings, renumbered } = await heldAcrossTempoChange(100);
    try {
      expect(tl.commitEpoch).toBe((tl.record.commitBlock + 2n) / 101n);
      expect(tl.commitEpoch).toBeLessThan(predicted.commitEpoch);
      // the first block of the next epoch at tempo 100, where the chain reveals it (below)
      expect(tl.revealBlock).toBe((tl.commitEpoch! + 1n) * 101n - 2n);
      expect(warnings).toEqual([renumbered]);
      const reveal = await h.drive(h.client.confirmTimelockedReveal(tl.record), 15);
      expect(reveal.commitEpoch).toBe(tl.commitEpoch);
      expect(reveal.blockNumber).toBe(tl.revealBlock);
    } finally {
      await h.close();
    }
  });

  it('a tempo cut raises the epoch above the prediction: the warning says renumbered (not late), with the reveal epoch first block at the new tempo', async () => {
    // Past block 30, (block + 2) / (tempo + 1) is 1 at tempo 20 and 5 or more at tempo 5.
    const { h, tl, predicted, warnings, renumbered } = await heldAcrossTempoChange(5);
    try {
      expect(tl.commitEpoch).toBe((tl.record.commitBlock + 2n) / 6n);
      expect(tl.commitEpoch).toBeGreaterThan(predicted.commitEpoch);
      expect(tl.revealBlock).toBe((tl.commitEpoch! + 1n) * 6n - 2n);
      expect(warnings).toEqual([renumbered]);
      // The renumbered reveal epoch ends before the predicted round's pulse is stored: the next epoch's first block
      // deletes the queue unread (reveal_commits.rs:53-58), which the client reports as it is.
      await expect(h.drive(h.client.confirmTimelockedReveal(tl.record), 15)).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { revealBlock: tl.revealBlock! + 6n, likelyReasons: ['expired', 'pulse_missing'], pulseStored: false },
      });
    } finally {
      await h.close();
    }
  });
});

describe("the per-block epoch cap (MaxEpochsPerBlock) defers a subnet's epoch and its reveal (Subtensor main only)", { timeout: 60_000 }, () => {
  // 14bc6f9f9: a due subnet over the cap gets PendingEpochAt = block + 1 (coinbase/run_coinbase.rs:369-378) and its
  // reveal step is skipped in that block (coinbase/block_step.rs:87-93); finney's production cap is 2
  // (runtime/src/lib.rs:1042). ab0cb2e52 (spec 393) has no cap.
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      runtime: 'stateful',
      neurons: 8,
      validators: 4,
      tempo: TEMPO,
      commitReveal: true,
      weightsSetRateLimit: 0n,
      beacon: { period: 12 },
    });
    await h.devnet.produceBlock();
  });
  afterAll(async () => {
    await h.close();
  });

  it('a commit whose reveal epoch starts blocks after the predicted block is confirmed there (the wait follows the queue, not the prediction); a check during the deferral is pending', async () => {
    const committed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '2': 1, '3': 3 }, waitForReveal: false }));
    const record = committed.timelock!.record;
    const predicted = record.prediction!.revealBlock;
    h.devnet.deferEpochs(6);
    await h.devnet.produceBlocks(Number(predicted) + 2 - h.devnet.bestNumber()); // into the deferral
    await expect(h.client.confirmTimelockedReveal(record, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'CHAIN_TIMELOCK_REVEAL_TIMEOUT' });
    const reveal = await h.drive(h.client.confirmTimelockedReveal(record), 15);
    expect(reveal.blockNumber).toBe(predicted + 6n); // past the prediction's target block (reveal block + 3)
    expect(reveal.stored).toEqual([21845, 65535]);
    expect(h.devnet.timelockDrops()).toEqual([]);
  });

  it('a deferral at the end of the reveal epoch does not lengthen it: the deferred blocks run no reveal step for the subnet, so a pulse first readable there comes too late (expired where the epoch runs)', async () => {
    const snapshot = await readMetagraph(h.client.connection, { netuid: 1 });
    const context = await readTimelockContext(h.client.connection, snapshot.blockHash);
    const { prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: h.client.signer.publicKey, uids: [1], values: [1], versionKey: 0n });
    const last = prediction.revealBlock + BigInt(TEMPO - 1); // the last block of the reveal epoch; the next epoch is due in last + 1
    const inTime = await commitToRoundOf(h, 4, last - 1n); // pulse readable in `last`
    const tooLate = await commitToRoundOf(h, 5, last + 1n); // pulse readable in last + 2, a deferred block
    expect(tooLate.commitBlock).toBeLessThan(prediction.revealBlock);
    await h.devnet.produceBlocks(Number(prediction.revealBlock) + 1 - h.devnet.bestNumber()); // the reveal epoch has started
    h.devnet.deferEpochs(3); // the next epoch, due in last + 1, runs in last + 4
    const revealed = await h.drive(h.client.confirmTimelockedReveal(inTime), 15);
    expect(revealed.blockNumber).toBe(last);
    await expect(h.drive(h.client.confirmTimelockedReveal(tooLate), 15)).rejects.toMatchObject({
      code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
      context: {
        revealBlock: last + 4n,
        commitEpoch: revealed.commitEpoch,
        revealEpoch: revealed.commitEpoch + 1n,
        likelyReasons: ['expired'],
        pulseStored: true,
      },
    });
  });
});

/**
 * The devnet's runtime as a Subtensor node built with `fast-runtime` declares it (the default of the repository's
 * `scripts/localnet.sh`): `Timestamp.MinimumPeriod = SLOT_DURATION / 2` with `SLOT_DURATION = MILLISECS_PER_BLOCK`,
 * 250 ms instead of 12000 (opentensor/subtensor 14bc6f9f9 `runtime/src/lib.rs:412`, `common/src/lib.rs:358`).
 * The one u64 6000 of the devnet's metadata (finney's MinimumPeriod) becomes 125.
 */
function fastRuntime(kind: Runtime): DevnetRuntime {
  const metadata = buildMetadata(kind);
  const u64le = (v: number): number[] => [v & 0xff, (v >> 8) & 0xff, 0, 0, 0, 0, 0, 0];
  const finney = u64le(6000);
  const at: number[] = [];
  for (let i = 0; i + 8 <= metadata.length; i += 1) if (finney.every((b, j) => metadata[i + j] === b)) at.push(i);
  expect(at).toHaveLength(1);
  metadata.set(u64le(125), at[0]);
  return { metadata, runtimeVersion: runtimeVersionOf(kind), ss58Prefix: SS58_PREFIX };
}

describe.each(RUNTIMES)('commit-reveal v4 on a fast-runtime chain (250 ms blocks), %s runtime', { timeout: 60_000 }, (runtime) => {
  it("predicts the round with the runtime's own block time (2 x Timestamp.MinimumPeriod), so the chain reveals the commit", async () => {
    // With 12 s per block assumed, the round would lie ~43 x 12 s after the head while the reveal epoch lasts
    // ~41 x 0.25 s: its pulse never arrives in the epoch and the chain drops the commit silently.
    const h = await startHarness({
      runtime: fastRuntime(runtime),
      slotDuration: 250,
      neurons: 8,
      validators: 4,
      tempo: 40,
      commitReveal: true,
      weightsSetRateLimit: 0n,
      beacon: { period: 1 },
    });
    try {
      await h.devnet.produceBlock();
      const snapshot = await readMetagraph(h.client.connection, { netuid: 1 });
      expect((await readTimelockContext(h.client.connection, snapshot.blockHash)).blockTimeSeconds).toBe(0.25);
      const result = await h.includeThenDrive(h.client.setWeights({ netuid: 1, weights: { '2': 1, '3': 3 } }), 10);
      expect(result.kind).toBe('reveal');
      const tl = result.timelock!;
      expect(tl.reveal!.blockNumber).toBeGreaterThanOrEqual(tl.record.prediction!.revealBlock);
      expect(tl.reveal!.blockNumber).toBeLessThanOrEqual(tl.record.prediction!.targetBlock + 1n);
      expect(result.stored).toEqual([21845, 65535]);
      expect(h.devnet.timelockDrops()).toEqual([]);
      // an explicit block time still wins over the runtime's
      expect((await readTimelockContext(h.client.connection, snapshot.blockHash, { blockTimeSeconds: 12 })).blockTimeSeconds).toBe(12);
    } finally {
      await h.close();
    }
  });
});

describe.each(RUNTIMES)('RevealPeriodEpochs lowered before the reveal epoch, %s runtime', { timeout: 60_000 }, (runtime) => {
  it('the reveal epoch is skipped: the queue is deleted unread in the block that would have revealed it, and the client reports expired (pulse stored), as does the devnet', async () => {
    const h = await startHarness({
      runtime,
      neurons: 8,
      validators: 4,
      tempo: 10,
      commitReveal: true,
      weightsSetRateLimit: 0n,
      revealPeriodEpochs: 2n,
      beacon: { period: 12 },
    });
    try {
      await h.devnet.produceBlock();
      const snapshot = await readMetagraph(h.client.connection, { netuid: 1 });
      const context = await readTimelockContext(h.client.connection, snapshot.blockHash);
      // With RevealPeriodEpochs 2, a commit in the next block is revealed from block `first` on (epoch E + 2).
      const { prediction } = prepareTimelockedCommit({ snapshot, context, hotkeyPublicKey: h.client.signer.publicKey, uids: [1], values: [1], versionKey: 0n });
      const first = prediction.revealBlock;
      // A round published right away, so its pulse is stored long before `first`: nothing but the period change stops it.
      const record = await commitToRoundOf(h, 1, BigInt(h.devnet.bestNumber()) + 2n);
      expect(record.commitBlock).toBe(snapshot.block + 1n);
      // The owner lowers the period to 1 by an admin call included in block first - 1: that block's reveal step still
      // used 2 (epoch E - 1's queue), the next one uses 1, so it works on epoch E + 1 and deletes epoch E's queue
      // unread (coinbase/reveal_commits.rs:53-58 at 14bc6f9f9). Epoch E's queue is never opened.
      await h.devnet.produceBlocks(Number(first) - 2 - h.devnet.bestNumber());
      h.devnet.setHyperparameter('revealPeriodEpochs', 1n);
      const drops = h.devnet.timelockDrops().length;
      const missing = h.drive(h.client.confirmTimelockedReveal(record), 15);
      await expect(missing).rejects.toMatchObject({
        code: 'CHAIN_TIMELOCK_REVEAL_MISSING',
        context: { revealBlock: first, likelyReasons: ['expired'], pulseStored: true, checks: [] },
      });
      const error = (await missing.catch((e: unknown) => e)) as { context: { commitEpoch: bigint; revealEpoch: bigint } };
      expect(error.context.revealEpoch).toBe(error.context.commitEpoch + 1n); // E + 2 - 1: past E
      expect(
        h.devnet
          .timelockDrops()
          .slice(drops)
          .map((d) => [d.block, d.reason]),
      ).toEqual([[first, 'expired']]);
    } finally {
      await h.close();
    }
  });
});
