import { describe, expect, it } from 'vitest';

import { createNonceStore, NONCE_STORE_DEFAULTS } from '../nonce-store.js';

/** The bounded nonce store: idle keys forgotten after the retention, at most maxEntries keys, replays still refused. */

const S = 1_000_000_000n;

describe('createNonceStore', () => {
  it('keeps the last nonce per key, as the SDK dict does', () => {
    const store = createNonceStore();
    store.accept('alice:u1', 10n * S, 10n * S);
    store.accept('alice:u1', 11n * S, 11n * S);
    store.accept('bob:u2', 12n * S, 12n * S);
    expect([store.last('alice:u1'), store.last('bob:u2'), store.last('eve:u3'), store.size(), store.floor()]).toEqual([
      11n * S,
      12n * S,
      undefined,
      2,
      undefined,
    ]);
  });

  it('forgets keys idle longer than the retention (the 4 s window plus 60 s of timeout) and keeps the largest forgotten nonce as the floor', () => {
    expect(NONCE_STORE_DEFAULTS.retentionNs).toBe(64n * S);
    const store = createNonceStore();
    store.accept('alice:u1', 100n * S, 100n * S);
    store.accept('bob:u2', 150n * S, 150n * S);
    store.accept('carol:u3', 164n * S, 164n * S); // alice idle exactly 64 s: kept
    expect(store.size()).toBe(3);
    store.accept('carol:u3', 165n * S, 165n * S); // alice idle 65 s: forgotten
    expect([store.last('alice:u1'), store.size(), store.floor()]).toEqual([undefined, 2, 100n * S]);
    // Using a key refreshes it: bob, used again, outlives carol's age.
    store.accept('bob:u2', 200n * S, 200n * S);
    store.accept('dave:u4', 230n * S, 230n * S); // carol idle 65 s: forgotten; bob idle 30 s: kept
    expect([store.last('carol:u3'), store.last('bob:u2'), store.floor()]).toEqual([undefined, 200n * S, 165n * S]);
  });

  it('never holds more than maxEntries keys: a flood of new uuids evicts the least recently used, lifting the floor', () => {
    const store = createNonceStore({ maxEntries: 3 });
    for (let i = 0n; i < 1000n; i++) store.accept(`alice:u${i}`, 1000n * S + i, 1000n * S + i);
    expect(store.size()).toBe(3);
    expect([store.last('alice:u999'), store.last('alice:u997'), store.last('alice:u996')]).toEqual([1000n * S + 999n, 1000n * S + 997n, undefined]);
    expect(store.floor()).toBe(1000n * S + 996n);
  });

  it('refuses options out of range with AXON_SERVER_START naming the option', () => {
    expect(() => createNonceStore({ maxEntries: 0 })).toThrow(
      expect.objectContaining({ code: 'AXON_SERVER_START', context: { path: 'maxNonceEntries', value: 0 } }),
    );
    expect(() => createNonceStore({ maxEntries: 1.5 })).toThrow(expect.objectContaining({ code: 'AXON_SERVER_START' }));
    expect(() => createNonceStore({ retentionNs: 0n })).toThrow(
      expect.objectContaining({ code: 'AXON_SERVER_START', context: { path: 'nonceRetentionNs', value: 0n } }),
    );
  });
});
