import { describe, expect, it } from 'vitest';

import {
  blockNumberSchema,
  decodeSs58,
  encodeSs58,
  hotkeySchema,
  isHotkey,
  isSubnetError,
  nonNegativeFiniteSchema,
  parseInput,
  u16WeightSchema,
  uidSchema,
  unitIntervalSchema,
} from '../index.js';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_HEX = 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('ss58', () => {
  it('decodes the well-known //Alice address to its public key and prefix 42', () => {
    const decoded = decodeSs58(ALICE);
    expect(decoded.prefix).toBe(42);
    expect(hex(decoded.publicKey)).toBe(ALICE_HEX);
  });

  it('encodes //Alice for Polkadot (0), Kusama (2) and Bittensor (42) as the published addresses', () => {
    const key = Uint8Array.from(Buffer.from(ALICE_HEX, 'hex'));
    expect(encodeSs58(key, 0)).toBe('15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5');
    expect(encodeSs58(key, 2)).toBe('HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F');
    expect(encodeSs58(key)).toBe(ALICE);
  });

  it('round-trips two-byte prefixes', () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    for (const prefix of [64, 255, 1000, 16383]) {
      const decoded = decodeSs58(encodeSs58(key, prefix));
      expect(decoded.prefix).toBe(prefix);
      expect(hex(decoded.publicKey)).toBe(hex(key));
    }
  });

  it('rejects a bad checksum, a wrong length and non-base58 characters with CORE_INVALID_SS58', () => {
    const badChecksum = `${ALICE.slice(0, -1)}${ALICE.endsWith('Y') ? 'Z' : 'Y'}`;
    for (const [text, why] of [
      [badChecksum, /checksum/],
      [ALICE.slice(0, 20), /bytes/],
      [`${ALICE.slice(0, -1)}0`, /base58/],
    ] as const) {
      expect(() => decodeSs58(text)).toThrow(why);
      try {
        decodeSs58(text);
      } catch (error) {
        expect(isSubnetError(error, 'CORE_INVALID_SS58')).toBe(true);
      }
    }
  });
});

describe('primitive schemas', () => {
  it('hotkey: accepts a valid SS58 hotkey and rejects a checksum error', () => {
    expect(hotkeySchema.parse(ALICE)).toBe(ALICE);
    const result = hotkeySchema.safeParse(`${ALICE.slice(0, -1)}Z`);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/checksum/);
  });

  it('uid and u16 weight: integers 0..65535 only', () => {
    for (const schema of [uidSchema, u16WeightSchema]) {
      expect(schema.parse(0)).toBe(0);
      expect(schema.parse(65535)).toBe(65535);
      for (const bad of [-1, 65536, 1.5, Number.NaN, '3']) expect(schema.safeParse(bad).success).toBe(false);
    }
  });

  it('unit interval: [0, 1] closed, no NaN or Infinity', () => {
    for (const ok of [0, 0.5, 1]) expect(unitIntervalSchema.parse(ok)).toBe(ok);
    for (const bad of [-0.01, 1.0000001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(unitIntervalSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('non-negative finite: 0 and up, no NaN or Infinity', () => {
    expect(nonNegativeFiniteSchema.parse(0)).toBe(0);
    expect(nonNegativeFiniteSchema.parse(1e12)).toBe(1e12);
    for (const bad of [-1e-9, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(nonNegativeFiniteSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('block number: number, bigint or decimal string up to u64::MAX, parsed to bigint', () => {
    expect(blockNumberSchema.parse(4_200_000)).toBe(4_200_000n);
    expect(blockNumberSchema.parse(7n)).toBe(7n);
    expect(blockNumberSchema.parse('18446744073709551615')).toBe(18446744073709551615n);
    for (const bad of [-1, 1.5, '01', '18446744073709551616', -1n, 2n ** 64n, Number.MAX_SAFE_INTEGER + 1]) {
      expect(blockNumberSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('parseInput', () => {
  it('turns a zod failure into a coded error naming the path and value', () => {
    let caught: unknown;
    try {
      parseInput(uidSchema.array(), [1, 2, 70000], 'CORE_INVALID_INPUT', 'uids');
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'CORE_INVALID_INPUT')).toBe(true);
    const error = caught as Error & { context: { path: string; value: unknown; issues: unknown[] } };
    expect(error.context.path).toBe('uids[2]');
    expect(error.context.value).toBe(70000);
    expect(error.message).toContain('uids[2]');
    expect(error.message).toContain('70000');
  });

  it('returns the parsed value when valid', () => {
    expect(parseInput(blockNumberSchema, '12', 'CORE_INVALID_INPUT', 'block')).toBe(12n);
  });
});

describe('hotkey verdicts are remembered without changing them', () => {
  it('gives the same verdict on the first and every later check of the same strings', () => {
    const bad = `${ALICE.slice(0, -1)}Z`;
    for (let round = 0; round < 3; round++) {
      expect(hotkeySchema.safeParse(ALICE).success).toBe(true);
      const result = hotkeySchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/checksum/);
    }
  });

  it('gives right verdicts after more distinct strings than it remembers (it is bounded, and starts over)', () => {
    // 70,000 distinct strings that fail fast ('0' is outside base58) overflow the 65,536-entry memo.
    for (let i = 0; i < 70_000; i++) expect(hotkeySchema.safeParse(`0${i}`).success).toBe(false);
    const bad = `${ALICE.slice(0, -1)}Z`;
    expect(hotkeySchema.safeParse(ALICE).success).toBe(true);
    expect(hotkeySchema.safeParse(bad).success).toBe(false);
    const fresh = encodeSs58(Uint8Array.from({ length: 32 }, (_, i) => 255 - i));
    expect(hotkeySchema.safeParse(fresh).success).toBe(true);
    expect(hotkeySchema.safeParse(`${fresh.slice(0, -1)}${fresh.endsWith('1') ? '2' : '1'}`).success).toBe(false);
  });
});

describe('isHotkey', () => {
  it('says yes exactly when hotkeySchema accepts the value', () => {
    const fresh = encodeSs58(Uint8Array.from({ length: 32 }, (_, i) => i * 7));
    const values: unknown[] = [
      ALICE,
      fresh,
      `${ALICE.slice(0, -1)}Z`,
      `${fresh.slice(0, -1)}${fresh.endsWith('1') ? '2' : '1'}`,
      '',
      '0',
      'x'.repeat(48),
      '\ud800',
      42,
      null,
      undefined,
      [ALICE],
      { ALICE },
    ];
    const verdicts = values.map((v) => isHotkey(v));
    expect(verdicts).toEqual(values.map((v) => hotkeySchema.safeParse(v).success));
    expect(verdicts.slice(0, 4)).toEqual([true, true, false, false]);
  });
});
