import { join } from 'node:path';

import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { createDendrite, createSynapse, defineSynapse } from '@subnet/axon';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { axonAddressScope } from '../dispatch/axon-address.js';
import { dispatchConfigSchema } from '../dispatch/dispatch-config.js';
import { createLimiter } from '../dispatch/limiter.js';
import type { AxonAddress, MemberQuery } from '../dispatch/query-member.js';
import { queryMember } from '../dispatch/query-member.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import { createWriteQueue } from '../write-queue.js';
import { sssaDoc, tempDir } from './helpers.js';

/**
 * A miner controls the axon address the chain holds for it. The chain refuses only 127.0.0.1 and ::1
 * (subtensor `subnets/serving.rs`), so a miner can point the validator at 127.0.0.2, 10.0.0.5, 169.254.169.254
 * or ::ffff:127.0.0.1 (an IPv6 axon of an IPv4-mapped loopback): without a rule the validator would POST
 * signed requests into its own host or network. Real HTTP on 127.0.0.1.
 */

const SecurityAudit = defineSynapse({
  name: 'SecurityAudit',
  fields: [
    ['target', { type: 'str' }],
    ['sssa', { type: { optional: 'any' }, default: null }],
  ],
  requiredHashFields: [],
});

let signer: ReturnType<Keyring['addFromUri']>;
let miner: string;
let t: ReturnType<typeof tempDir>;
let storage: Storage;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  signer = keyring.addFromUri('//Alice');
  miner = keyring.addFromUri('//Bob').address;
});
beforeEach(() => {
  t = tempDir();
  storage = openSqliteStorage(join(t.dir, 'queries.sqlite'));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await storage.close();
  t.cleanup();
});

/** A local "axon" that counts the requests it gets and answers 404. */
async function countingAxon(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const { url, close } = await listenLocal((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "no"}');
  });
  closers.push(close);
  return { port: Number(new URL(url).port), hits: () => hits };
}

function query(): MemberQuery {
  return {
    challengeId: 'sssa',
    kind: 'sssa',
    epoch: 3,
    taskId: 'task-1',
    taskType: 'audit',
    taskInput: { target: 'x' },
    blockHash: `0x${'ab'.repeat(32)}`,
    member: { uid: 1, hotkey: miner, role: 'primary' },
    definition: SecurityAudit,
    synapse: createSynapse(SecurityAudit, { target: 'x' }),
    answerField: 'sssa',
    timeoutSeconds: 5,
  };
}

async function ask(axon: AxonAddress, allowPrivateAxons?: boolean) {
  return queryMember(
    {
      dendrite: createDendrite({ signer }),
      limiter: createLimiter(2),
      queue: createWriteQueue(storage),
      axonOf: () => axon,
      ...(allowPrivateAxons === undefined ? {} : { allowPrivateAxons }),
    },
    query(),
  );
}

describe('an axon address that is not public is not queried (dispatch.allow_private_axons, default false)', () => {
  it('127.0.0.1 and ::ffff:127.0.0.1: no_axon naming the address and the option, and nothing reaches the address', async () => {
    const local = await countingAxon();
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1']) {
      const got = await ask({ ip, port: local.port });
      expect(got.outcome).toBe('no_axon');
      expect(got.status_code).toBeNull();
      expect(got.reason).toContain(ip);
      expect(got.reason).toMatch(/loopback/);
      expect(got.reason).toContain('dispatch.allow_private_axons');
    }
    expect(local.hits()).toBe(0);
  });

  it('an axon never served (0.0.0.0, ::) or served on port 0 is no_axon "not serving", even with allow_private_axons', async () => {
    for (const [ip, port] of [
      ['0.0.0.0', 8091],
      ['::', 8091],
      ['203.0.113.7', 0],
    ] as const) {
      const got = await ask({ ip, port }, true);
      expect(got.outcome).toBe('no_axon');
      expect(got.status_code).toBeNull();
      expect(got.reason).toBe(`the miner's axon is not serving (${ip}:${port})`);
    }
  });

  it('with allow_private_axons the same address is queried (a local devnet, a private cluster)', async () => {
    const local = await countingAxon();
    const got = await ask({ ip: '127.0.0.1', port: local.port }, true);
    expect(local.hits()).toBe(1);
    expect(got.outcome).toBe('axon_error');
    expect(got.status_code).toBe(404);
  });

  it('max_response_bytes is at most 8 MiB: a larger answer packed with small values would take seconds and gigabytes to read (64 MiB: beyond the 4 GiB heap)', () => {
    const section = {
      challenges: [
        { challenge_id: 'sssa', synapse: { name: 'S', fields: [{ name: 'a', type: 'any', default: null }], answer_field: 'a' }, task_source: { folder: '.' } },
      ],
    };
    expect(dispatchConfigSchema.parse({ ...section, max_response_bytes: 8 * 1024 * 1024 }).max_response_bytes).toBe(8 * 1024 * 1024);
    for (const bytes of [8 * 1024 * 1024 + 1, 64 * 1024 * 1024]) {
      const parsed = dispatchConfigSchema.safeParse({ ...section, max_response_bytes: bytes });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['max_response_bytes']);
    }
  });

  it('the option is configuration, off unless set', () => {
    const section = {
      challenges: [
        { challenge_id: 'sssa', synapse: { name: 'S', fields: [{ name: 'a', type: 'any', default: null }], answer_field: 'a' }, task_source: { folder: '.' } },
      ],
    };
    expect(dispatchConfigSchema.parse(section).allow_private_axons).toBe(false);
    expect(dispatchConfigSchema.parse({ ...section, allow_private_axons: true }).allow_private_axons).toBe(true);
    expect(dispatchConfigSchema.safeParse({ ...section, allow_private_axons: 'yes' }).success).toBe(false);
  });
});

describe('axonAddressScope: which addresses are not public unicast (RFC 6890, RFC 1918, RFC 4193, RFC 4291)', () => {
  // Written out from the registries, one address inside and one just outside each IPv4 range.
  const cases: readonly (readonly [string, string | undefined])[] = [
    ['0.0.0.0', 'unspecified ("this network")'],
    ['0.255.255.255', 'unspecified ("this network")'],
    ['1.0.0.0', undefined],
    ['9.255.255.255', undefined],
    ['10.0.0.5', 'private'],
    ['11.0.0.0', undefined],
    ['100.63.255.255', undefined],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.255', 'shared (carrier-grade NAT)'],
    ['100.128.0.0', undefined],
    ['127.0.0.2', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.15.255.255', undefined],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', undefined],
    ['192.0.0.8', 'IETF protocol assignment'],
    ['192.168.1.1', 'private'],
    ['192.169.0.0', undefined],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', undefined],
    ['203.0.113.7', undefined],
    ['8.8.8.8', undefined],
    ['223.255.255.255', undefined],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved or broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', undefined],
    ['fc00::1', 'private (unique local)'],
    ['fdff:ffff::1', 'private (unique local)'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['feff:ffff::1', 'site-local (deprecated)'],
    // NAT64 and 6to4 carry an IPv4 address a gateway or relay forwards to: judged as that address.
    ['64:ff9b::a00:1', 'private (through NAT64)'],
    ['64:ff9b::127.0.0.1', 'loopback (through NAT64)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (through NAT64)'],
    ['64:ff9b::808:808', undefined],
    ['64:ff9b:1::a00:1', 'NAT64 local use'],
    ['64:ff9c::a00:1', undefined],
    ['2002:a00:1::1', 'private (through 6to4)'],
    ['2002:c0a8:101::1', 'private (through 6to4)'],
    ['2002:808:808::1', undefined],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', undefined],
    ['2606:4700::6810:84e5', undefined],
    ['not-an-ip', 'not an IP address'],
  ];
  it.each(cases)('%s -> %s', (ip, scope) => {
    expect(axonAddressScope(ip)).toBe(scope);
  });
});

describe("an answer's integer beyond 2^53, as the miner writes it on the wire", () => {
  it('is an invalid_answer with UNSAFE_NUMBER naming the path and the exact value, as at HTTP ingest (docs/spec.md G.6)', async () => {
    const { url, close } = await listenLocal((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '200' });
        res.end(`{"target": "x", "sssa": ${JSON.stringify(sssaDoc()).slice(0, -1)}, "extra": [1, 9007199254740993]}}`);
      });
    });
    closers.push(close);
    const got = await ask({ ip: '127.0.0.1', port: Number(new URL(url).port) }, true);
    expect(got.outcome).toBe('invalid_answer');
    expect(got.status_code).toBe(200);
    expect(got.reason).toMatch(/^UNSAFE_NUMBER: .* at sssa\.extra\[1\] \(got 9007199254740993\)$/);
  });
});

describe('an axon that answers in the name of another hotkey', () => {
  it("is credited to the hotkey the validator asked (the metagraph's owner of that axon), never to the one it names", async () => {
    const other = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Charlie').address;
    const { url, close } = await listenLocal((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', bt_header_axon_status_code: '200', bt_header_axon_hotkey: other });
        res.end(JSON.stringify({ target: 'x', sssa: sssaDoc(), axon: { hotkey: other } }));
      });
    });
    closers.push(close);
    const got = await ask({ ip: '127.0.0.1', port: Number(new URL(url).port) }, true);
    expect(got.outcome).toBe('answered');
    expect(got.miner_hotkey).toBe(miner);
    const stored = await storage.findRecord('sssa', got.record_id ?? '');
    expect(stored).toBeDefined();
    expect((JSON.parse(stored?.body ?? '{}') as { miner_hotkey?: string }).miner_hotkey).toBe(miner);
  });
});
