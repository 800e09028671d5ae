import type { ServerResponse } from 'node:http';

import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { isSubnetError } from '@subnet/core';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createDendrite } from '../dendrite.js';
import { parseJsonText } from '../json-text.js';
import { createSynapse, synapseValues } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';

/** A miner's axon that answers with hostile bytes, over real HTTP on 127.0.0.1. */

const Answer = defineSynapse({
  name: 'Answer',
  fields: [
    ['task', { type: 'int' }],
    ['answer', { type: { optional: 'any' }, default: null }],
  ],
  requiredHashFields: [],
});

let alice: KeyringPair;
let bob: KeyringPair;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  alice = keyring.addFromUri('//Alice');
  bob = keyring.addFromUri('//Bob');
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Starts an axon that answers every request with `answer` and returns its port. */
async function hostileAxon(answer: (res: ServerResponse) => void): Promise<number> {
  const { url, close } = await listenLocal((req, res) => {
    req.resume();
    req.on('end', () => {
      answer(res);
    });
  });
  closers.push(close);
  return Number(new URL(url).port);
}

function json(body: string): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '200' });
    res.end(body);
  };
}

async function ask(port: number, timeoutSeconds = 10) {
  return createDendrite({ signer: alice }).query({ ip: '127.0.0.1', port, hotkey: bob.address }, Answer, createSynapse(Answer, { task: 1 }), timeoutSeconds);
}

describe('an integer literal longer than CPython converts (4300 digits)', () => {
  it('parseJsonText takes 4300 digits and refuses 4301 with AXON_INVALID_JSON naming the digit count, as json.loads raises', () => {
    const at = parseJsonText(`[-${'9'.repeat(4300)}]`);
    expect(at).toEqual({ kind: 'array', items: [{ kind: 'number', text: `-${'9'.repeat(4300)}` }] });
    let caught: unknown;
    try {
      parseJsonText(`{"a": ${'9'.repeat(4301)}}`);
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'AXON_INVALID_JSON')).toBe(true);
    expect((caught as Error).message).toMatch(/4301 digits/);
    expect((caught as Error).message).toMatch(/4300/);
    // A float's digits have no such limit in CPython (float(), not int()).
    expect(parseJsonText(`${'9'.repeat(5000)}.5`)).toEqual({ kind: 'number', text: `${'9'.repeat(5000)}.5` });
  });

  it("an axon answering a 1 MiB integer gets the SDK dendrite's 422, not a 200 the validator spends seconds converting", async () => {
    const within = await ask(await hostileAxon(json(`{"task": 1, "answer": ${'7'.repeat(4300)}}`)));
    expect(within.dendrite.statusCode).toBe(200);
    expect(synapseValues(within).answer).toBe(BigInt('7'.repeat(4300)));
    const huge = await ask(await hostileAxon(json(`{"task": 1, "answer": ${'7'.repeat(1 << 20)}}`)));
    expect(huge.dendrite.statusCode).toBe(422);
    expect(huge.dendrite.statusMessage).toMatch(/^Failed to parse response: .*1048576 digits/);
  });
});
