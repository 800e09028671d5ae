import type { KeyringPair } from '@polkadot/keyring/types';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { CallerInfo } from '../axon-blacklist.js';
import { defaultBlacklist } from '../axon-blacklist.js';
import type { Axon, AxonOptions } from '../axon-server.js';
import { createAxon } from '../axon-server.js';
import { createDendrite } from '../dendrite.js';
import type { Synapse } from '../synapse.js';
import { createSynapse } from '../synapse.js';
import { Dummy, devKeys } from './sdk-dummy.js';

/** Options of `createAxon` that no other test observes, over real HTTP on 127.0.0.1. */

let alice: KeyringPair;
let bob: KeyringPair;
let charlie: KeyringPair;
const open: Axon[] = [];

beforeAll(async () => {
  [alice, bob, charlie] = (await devKeys('//Alice', '//Bob', '//Charlie')) as [KeyringPair, KeyringPair, KeyringPair];
});
afterEach(async () => {
  for (const a of open.splice(0)) await a.close();
});

async function axonWith(options: Partial<AxonOptions>, metagraph: Map<string, CallerInfo>): Promise<Axon> {
  const axon = await createAxon({
    hotkey: bob.address,
    handlers: [{ definition: Dummy, forward: (s: Synapse) => s }],
    caller: (h) => metagraph.get(h),
    port: 0,
    ...options,
  });
  open.push(axon);
  return axon;
}

describe('minStake: callers below it are blacklisted', () => {
  it('defaultBlacklist: a stake one below the minimum is "Insufficient stake"; exactly the minimum passes', () => {
    expect(defaultBlacklist(alice.address, { validatorPermit: true, stake: 99n }, { minStake: 100n })).toEqual([true, 'Insufficient stake']);
    expect(defaultBlacklist(alice.address, { validatorPermit: true, stake: 100n }, { minStake: 100n })).toEqual([false, 'Hotkey recognized!']);
  });

  it('createAxon({ minStake }): 403 "Forbidden. Key is blacklisted: Insufficient stake." below it, 200 at it', async () => {
    const metagraph = new Map<string, CallerInfo>([
      [alice.address, { validatorPermit: true, stake: 100n }],
      [charlie.address, { validatorPermit: true, stake: 99n }],
    ]);
    const axon = await axonWith({ minStake: 100n }, metagraph);
    const target = { ip: '127.0.0.1', port: axon.port, hotkey: bob.address };
    const poor = await createDendrite({ signer: charlie }).query(target, Dummy, createSynapse(Dummy, { dummy_input: 1 }), 5);
    expect([poor.dendrite.statusCode, poor.dendrite.statusMessage]).toEqual([403, 'Forbidden. Key is blacklisted: Insufficient stake.']);
    const enough = await createDendrite({ signer: alice }).query(target, Dummy, createSynapse(Dummy, { dummy_input: 1 }), 5);
    expect(enough.dendrite.statusCode).toBe(200);
  });
});

describe('an error answer carries the request’s timeout, or the SDK’s default, as create_error_response (to_headers)', () => {
  it('a blacklisted request with timeout 5 is answered with the header timeout: 5.0', async () => {
    const axon = await axonWith({}, new Map());
    const res = await fetch(`${axon.url}/Dummy`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        name: 'Dummy',
        timeout: '5',
        bt_header_dendrite_hotkey: alice.address,
        // The placeholder of Dummy's required field, as the SDK's dendrite sends it.
        bt_header_input_obj_dummy_input: Buffer.from('0').toString('base64'),
      },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('timeout')).toBe('5.0');
    await res.arrayBuffer();
  });

  it('a request without a timeout header (or whose headers do not parse) is answered with timeout: 12.0, the field’s default', async () => {
    const axon = await axonWith({}, new Map());
    const placeholder = { bt_header_input_obj_dummy_input: Buffer.from('0').toString('base64') };
    const blacklisted = await fetch(`${axon.url}/Dummy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', name: 'Dummy', bt_header_dendrite_hotkey: alice.address, ...placeholder },
      body: '{}',
    });
    expect([blacklisted.status, blacklisted.headers.get('timeout')]).toEqual([403, '12.0']);
    await blacklisted.arrayBuffer();
    const unparsed = await fetch(`${axon.url}/Dummy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', name: 'Dummy', timeout: 'soon', ...placeholder },
      body: '{}',
    });
    expect([unparsed.status, unparsed.headers.get('timeout')]).toEqual([500, '12.0']);
    await unparsed.arrayBuffer();
  });
});

describe('maxNonceEntries bounds the nonce store, and what it forgets cannot be replayed', () => {
  it('with one entry, a new dendrite whose first nonce is below the forgotten one is refused 401 as stale (the floor), though inside the SDK window', async () => {
    const t0 = 1_800_000_000_000_000_000n;
    const metagraph = new Map<string, CallerInfo>([[alice.address, { validatorPermit: true, stake: 1n }]]);
    const axon = await axonWith({ maxNonceEntries: 1, nowNs: () => t0 }, metagraph);
    const target = { ip: '127.0.0.1', port: axon.port, hotkey: bob.address };
    const at = (ns: bigint) => createDendrite({ signer: alice, nowNs: () => ns });
    expect((await at(t0).query(target, Dummy, createSynapse(Dummy, { dummy_input: 1 }), 5)).dendrite.statusCode).toBe(200);
    // A second uuid takes the only entry: the first one's nonce becomes the floor.
    expect((await at(t0 + 1_000_000n).query(target, Dummy, createSynapse(Dummy, { dummy_input: 2 }), 5)).dendrite.statusCode).toBe(200);
    // One millisecond before the forgotten nonce: within the SDK's 4 s window, so only the floor refuses it.
    const late = await at(t0 - 1_000_000n).query(target, Dummy, createSynapse(Dummy, { dummy_input: 3 }), 5);
    expect([late.dendrite.statusCode, late.dendrite.statusMessage]).toEqual([401, 'Not Verified with error: Nonce is too old, a newer one was last processed']);
  });
});
