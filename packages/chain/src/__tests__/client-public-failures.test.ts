/**
 * Issue 15 item 4: no untyped error escapes any public method of the client. Each method is driven into failure
 * against the real devnet over a real WebSocket: bad input, a node rejection, a frozen endpoint and a closed
 * connection; every failure must be a coded `SubnetError` (recognised by code, as a caller would).
 */
import { isSubnetError } from '@subnet/core';
import { devHotkeyUri, POOL_ERRORS, startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';
import { afterEach, describe, expect, it } from 'vitest';

import { createChainClient } from '../chain-client.js';
import type { ChainClient } from '../chain-client.js';
import { memoryCommitStore } from '../commit-store.js';
import { CHAIN_ERROR_CODES } from '../error-codes.js';
import { loadSigner } from '../keys.js';
import type { TimelockedCommitRecord } from '../timelock-commit.js';
import type { FreezableProxy } from './freezable-proxy.js';
import { startFreezableProxy } from './freezable-proxy.js';

let devnet: Devnet | undefined;
let proxy: FreezableProxy | undefined;
let client: ChainClient | undefined;
afterEach(async () => {
  await client?.close();
  await proxy?.close();
  await devnet?.stop();
  client = undefined;
  proxy = undefined;
  devnet = undefined;
});

const HASH = `0x${'ab'.repeat(32)}`;

/** A well-formed record of a timelocked commit (no such commit is on chain). */
function recordFor(hotkey: string): TimelockedCommitRecord {
  return {
    hotkey,
    netuid: 1,
    mecid: 0,
    netuidIndex: 1,
    uid: 0,
    uids: [3],
    values: [65535],
    versionKey: 0n,
    revealRound: 1000n,
    commitHash: HASH,
    commitBlock: 1n,
    commitBlockHash: HASH,
    extrinsicHash: HASH,
    nonce: 0n,
    prediction: null,
  };
}

/** Starts a manual-mode devnet behind a freezable proxy and a client for uid 0 through the proxy. */
async function setUp(requestTimeoutMs = 1_500): Promise<ChainClient> {
  devnet = await startDevnet({ blockTime: 0, keyType: 'ed25519', weightsSetRateLimit: 0n });
  proxy = await startFreezableProxy(devnet.port);
  const signer = await loadSigner({ kind: 'uri', uri: devHotkeyUri('devnet', 0), keyType: 'ed25519' });
  const commitStore = memoryCommitStore();
  // a stored commit-reveal v2 commit of this hotkey, so revealPending reads the chain
  await commitStore.save({
    hotkey: signer.address,
    netuid: 1,
    mecid: 0,
    netuidIndex: 1,
    uids: [3],
    values: [65535],
    salt: [1, 2, 3, 4, 5, 6, 7, 8],
    versionKey: 0n,
    commitHash: HASH,
    commitBlock: 1n,
  });
  client = await createChainClient({
    network: `ws://127.0.0.1:${proxy.port}`,
    signer,
    commitStore,
    staleHeadMs: 0,
    requestTimeoutMs,
    inclusionTimeoutMs: 8_000,
    pollMs: 15,
    initialBackoffMs: 50,
    maxBackoffMs: 200,
  });
  await devnet.produceBlock();
  return client;
}

type Method = 'metagraph' | 'setWeights' | 'revealPending' | 'confirmTimelockedReveal' | 'nextAllowedBlock';

/** One call of every public method that talks to the chain. */
function everyMethod(c: ChainClient): Record<Method, () => Promise<unknown>> {
  return {
    metagraph: () => c.metagraph({ netuid: 1 }),
    setWeights: () => c.setWeights({ netuid: 1, weights: { '3': 1 } }),
    revealPending: () => c.revealPending(),
    confirmTimelockedReveal: () => c.confirmTimelockedReveal(recordFor(c.signer.address), { timeoutMs: 5_000 }),
    nextAllowedBlock: () => c.nextAllowedBlock({ netuid: 1 }),
  };
}

/** What each call threw (or `resolved` when it did not). */
async function failures(calls: Record<string, () => Promise<unknown>>): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(calls).map(async ([name, call]) => {
      try {
        await call();
        return [name, 'resolved'] as const;
      } catch (error) {
        return [name, error] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** The code of a coded error, or a description of what escaped untyped. */
function codeOf(error: unknown): string {
  if (isSubnetError(error)) return error.code;
  return `untyped: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

describe('no untyped error escapes a public method of the chain client', { timeout: 60_000 }, () => {
  it('bad input: every method refuses it with CHAIN_INVALID_INPUT naming the field, before reading the chain', async () => {
    const c = await setUp();
    const bad = (value: unknown): never => value as never;
    const thrown = await failures({
      'metagraph(null)': () => c.metagraph(bad(null)),
      'metagraph netuid 1.5': () => c.metagraph({ netuid: 1.5 }),
      'metagraph mecid 256': () => c.metagraph({ netuid: 1, mecid: 256 }),
      'metagraph at': () => c.metagraph({ netuid: 1, at: 'latest' }),
      'setWeights(undefined)': () => c.setWeights(bad(undefined)),
      'setWeights netuid': () => c.setWeights({ netuid: -1, weights: { '3': 1 } }),
      'setWeights weight': () => c.setWeights({ netuid: 1, weights: { '3': -1 } }),
      'setWeights wait': () => c.setWeights({ netuid: 1, weights: { '3': 1 }, wait: bad('soon') }),
      'setWeights versionKey': () => c.setWeights({ netuid: 1, weights: { '3': 1 }, versionKey: -1 }),
      'setWeights waitForReveal': () => c.setWeights({ netuid: 1, weights: { '3': 1 }, waitForReveal: bad('yes') }),
      'setWeights onSigned': () => c.setWeights({ netuid: 1, weights: { '3': 1 }, onSigned: bad('later') }),
      'revealPending(null)': () => c.revealPending(bad(null)),
      'revealPending wait': () => c.revealPending({ wait: bad('soon') }),
      'revealPending untilDone': () => c.revealPending({ untilDone: bad('yes') }),
      'revealPending timeoutMs': () => c.revealPending({ timeoutMs: Number.NaN }),
      'confirmTimelockedReveal(null)': () => c.confirmTimelockedReveal(bad(null)),
      'confirmTimelockedReveal commitHash': () => c.confirmTimelockedReveal({ ...recordFor(c.signer.address), commitHash: 'x' }),
      'confirmTimelockedReveal timeoutMs': () => c.confirmTimelockedReveal(recordFor(c.signer.address), { timeoutMs: -1 }),
      'nextAllowedBlock(null)': () => c.nextAllowedBlock(bad(null)),
      'nextAllowedBlock netuid': () => c.nextAllowedBlock({ netuid: 4096 }),
    });
    const paths: Record<string, string> = {
      'metagraph(null)': 'options',
      'metagraph netuid 1.5': 'netuid',
      'metagraph mecid 256': 'mecid',
      'metagraph at': 'at',
      'setWeights(undefined)': 'args',
      'setWeights netuid': 'netuid',
      'setWeights weight': 'weights["3"]',
      'setWeights wait': 'wait',
      'setWeights versionKey': 'versionKey',
      'setWeights waitForReveal': 'waitForReveal',
      'setWeights onSigned': 'onSigned',
      'revealPending(null)': 'args',
      'revealPending wait': 'wait',
      'revealPending untilDone': 'untilDone',
      'revealPending timeoutMs': 'timeoutMs',
      'confirmTimelockedReveal(null)': 'record',
      'confirmTimelockedReveal commitHash': 'record.commitHash',
      'confirmTimelockedReveal timeoutMs': 'timeoutMs',
      'nextAllowedBlock(null)': 'args',
      'nextAllowedBlock netuid': 'netuid',
    };
    const seen = Object.fromEntries(
      Object.entries(thrown).map(([name, e]) => [name, [codeOf(e), isSubnetError(e, CHAIN_ERROR_CODES.invalidInput) ? e.context.path : null]]),
    );
    expect(seen).toEqual(Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, [CHAIN_ERROR_CODES.invalidInput, path]])));
    // the client options too: refused before any socket is opened
    const options = await failures({
      signer: () => createChainClient({ network: devnet!.url, signer: bad(null) }),
      stakeCheck: () => createChainClient({ network: devnet!.url, signer: c.signer, stakeCheck: bad('maybe') }),
      network: () => createChainClient({ network: 'http://127.0.0.1:1', signer: c.signer }),
    });
    expect(Object.values(options).map(codeOf)).toEqual([CHAIN_ERROR_CODES.invalidInput, CHAIN_ERROR_CODES.invalidInput, CHAIN_ERROR_CODES.invalidInput]);
  });

  it('node rejections keep their RPC code and message (1002, -32603, pool Custom error: 6); reads at a block the node does not know are typed', async () => {
    const c = await setUp();
    for (const [rpcCode, message] of [
      [1002, 'Verification Error: Runtime error: Execution failed'],
      [-32603, 'Internal error'],
    ] as const) {
      devnet!.faults.rejectNextSubmission({ code: rpcCode, message });
      const error: unknown = await c.setWeights({ netuid: 1, weights: { '3': 1 } }).catch((e: unknown) => e);
      expect(isSubnetError(error, CHAIN_ERROR_CODES.nodeRejected)).toBe(true);
      if (!isSubnetError(error, CHAIN_ERROR_CODES.nodeRejected)) continue;
      expect([error.context.rpcCode, error.context.rpcMessage.includes(message), error.context.stage]).toEqual([rpcCode, true, 'submit']);
    }
    devnet!.faults.rejectNextSubmission(POOL_ERRORS.custom(6));
    const pool: unknown = await c.setWeights({ netuid: 1, weights: { '3': 1 } }).catch((e: unknown) => e);
    expect(isSubnetError(pool, CHAIN_ERROR_CODES.rateLimitExceeded)).toBe(true);
    if (isSubnetError(pool, CHAIN_ERROR_CODES.rateLimitExceeded)) {
      expect([pool.context.rpcCode, pool.context.customError, pool.context.rpcMessage]).toEqual([1010, 6, '1010: Invalid Transaction: Custom error: 6']);
    }
    // a read at a block the node does not know: typed, with the node's answer
    const unknown: unknown = await c.metagraph({ netuid: 1, at: HASH }).catch((e: unknown) => e);
    expect(codeOf(unknown)).toBe(CHAIN_ERROR_CODES.requestFailed);
    // a timelocked commit the chain never saw: its commit block is unknown to the node
    const record: unknown = await c.confirmTimelockedReveal(recordFor(c.signer.address), { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(codeOf(record)).toBe(CHAIN_ERROR_CODES.requestFailed);
    // revealPending and nextAllowedBlock read only at the head: the node answers them (the stored commit is
    // not on chain, so it is reported, not revealed)
    expect((await c.revealPending()).map((o) => [o.status, o.onChain])).toEqual([['expired', false]]);
    expect((await c.nextAllowedBlock({ netuid: 1 })).uid).toBe(0);
  });

  it('a frozen endpoint (no failover configured): every method fails with CHAIN_REQUEST_TIMEOUT', async () => {
    const requestTimeoutMs = 1_500;
    const c = await setUp(requestTimeoutMs);
    await c.metagraph({ netuid: 1 }); // the connection works before the freeze
    proxy!.freeze();
    const thrown = await failures(everyMethod(c));
    expect(Object.fromEntries(Object.entries(thrown).map(([name, e]) => [name, codeOf(e)]))).toEqual({
      metagraph: CHAIN_ERROR_CODES.requestTimeout,
      setWeights: CHAIN_ERROR_CODES.requestTimeout,
      revealPending: CHAIN_ERROR_CODES.requestTimeout,
      confirmTimelockedReveal: CHAIN_ERROR_CODES.requestTimeout,
      nextAllowedBlock: CHAIN_ERROR_CODES.requestTimeout,
    });
  });

  it('a closed client: every method fails with CHAIN_CLIENT_CLOSED, and closing twice is harmless', async () => {
    const c = await setUp();
    await c.close();
    await c.close();
    const thrown = await failures(everyMethod(c));
    expect(Object.fromEntries(Object.entries(thrown).map(([name, e]) => [name, codeOf(e)]))).toEqual({
      metagraph: CHAIN_ERROR_CODES.clientClosed,
      setWeights: CHAIN_ERROR_CODES.clientClosed,
      revealPending: CHAIN_ERROR_CODES.clientClosed,
      confirmTimelockedReveal: CHAIN_ERROR_CODES.clientClosed,
      nextAllowedBlock: CHAIN_ERROR_CODES.clientClosed,
    });
  });
});
