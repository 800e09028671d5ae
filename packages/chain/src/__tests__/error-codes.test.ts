import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createDevnetRegistry } from '@subnet/devnet';
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { chainError, mapModuleError, mapPoolError } from '../chain-error.js';
import { CHAIN_ERRORS, chainErrorCode, MODULE_ERROR_NAMES, POOL_CUSTOM_ERRORS, SUBTENSOR_MODULE_ERROR_NAMES } from '../error-codes.js';

/** The finney spec 393 metadata, public chain data kept in the repository as a test fixture. */
const FINNEY = resolve(dirname(fileURLToPath(import.meta.url)), '../../../devnet/src/__tests__/fixtures/finney-spec393-metadata.scale');

describe('error codes carry the chain name', () => {
  it('converts chain names to CHAIN_UPPER_SNAKE', () => {
    expect(chainErrorCode('SettingWeightsTooFast')).toBe('CHAIN_SETTING_WEIGHTS_TOO_FAST');
    expect(chainErrorCode('HotKeyNotRegisteredInSubNet')).toBe('CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET');
    expect(chainErrorCode('TooManyUIDsPerMechanism')).toBe('CHAIN_TOO_MANY_UIDS_PER_MECHANISM');
    expect(chainErrorCode('AncientBirthBlock')).toBe('CHAIN_ANCIENT_BIRTH_BLOCK');
  });
  it('maps every weights module error of README 2.2/2.4 to its own code with the chain name in context', () => {
    expect(MODULE_ERROR_NAMES).toHaveLength(28);
    for (const name of MODULE_ERROR_NAMES) {
      const error = mapModuleError('SubtensorModule', name);
      expect(error.code).toBe(chainErrorCode(name));
      expect(error.code).not.toBe('CHAIN_UNKNOWN_MODULE_ERROR');
      expect(error.context.chainName).toBe(name);
      expect(error.context.source).toBe('module');
      expect(error.message).toContain(name);
    }
  });
  it("maps another pallet's module error to CHAIN_UNKNOWN_MODULE_ERROR keeping its pallet and name", () => {
    const error = mapModuleError('Balances', 'InsufficientBalance');
    expect(error.code).toBe('CHAIN_UNKNOWN_MODULE_ERROR');
    expect(error.context.chainName).toBe('Balances.InsufficientBalance');
  });
  it('types every SubtensorModule error of the finney spec 393 metadata (fixture) with its own code', () => {
    const { registry } = createDevnetRegistry();
    const latest = (
      registry.createType('Metadata', new Uint8Array(readFileSync(FINNEY))) as unknown as {
        asLatest: {
          pallets: { name: { toString(): string }; errors: { unwrap(): { type: unknown } } }[];
          lookup: { getSiType(id: unknown): { def: { asVariant: { variants: { name: { toString(): string } }[] } } } };
        };
      }
    ).asLatest;
    const pallet = latest.pallets.find((p) => p.name.toString() === 'SubtensorModule')!;
    const names = latest.lookup.getSiType(pallet.errors.unwrap().type).def.asVariant.variants.map((v) => v.name.toString());
    expect(names.length).toBe(135);
    for (const name of names) {
      const error = mapModuleError('SubtensorModule', name);
      expect([name, error.code]).toEqual([name, chainErrorCode(name)]);
      expect(CHAIN_ERRORS.has(error.code)).toBe(true);
    }
    expect(SUBTENSOR_MODULE_ERROR_NAMES).toEqual(expect.arrayContaining(names));
  });
  it('maps every pool Custom error: N of README 2.3', () => {
    const expected: Record<number, string> = {
      0: 'CHAIN_COLDKEY_IN_SWAP_SCHEDULE',
      1: 'CHAIN_STAKE_AMOUNT_TOO_LOW',
      2: 'CHAIN_BALANCE_TOO_LOW',
      3: 'CHAIN_SUBNET_NOT_EXISTS',
      4: 'CHAIN_HOTKEY_ACCOUNT_DOESNT_EXIST',
      5: 'CHAIN_NOT_ENOUGH_STAKE_TO_WITHDRAW',
      6: 'CHAIN_RATE_LIMIT_EXCEEDED',
      7: 'CHAIN_INSUFFICIENT_LIQUIDITY',
      8: 'CHAIN_SLIPPAGE_TOO_HIGH',
      9: 'CHAIN_TRANSFER_DISALLOWED',
      10: 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_NETWORK',
      11: 'CHAIN_INVALID_IP_ADDRESS',
      12: 'CHAIN_SERVING_RATE_LIMIT_EXCEEDED',
      13: 'CHAIN_INVALID_PORT',
      14: 'CHAIN_ZERO_MAX_AMOUNT',
      15: 'CHAIN_INVALID_REVEAL_ROUND',
      16: 'CHAIN_COMMIT_NOT_FOUND',
      17: 'CHAIN_COMMIT_BLOCK_NOT_IN_REVEAL_RANGE',
      18: 'CHAIN_INPUT_LENGTHS_UNEQUAL',
      19: 'CHAIN_UID_NOT_FOUND',
      20: 'CHAIN_EVM_KEY_ASSOCIATE_RATE_LIMIT_EXCEEDED',
      21: 'CHAIN_COLDKEY_SWAP_DISPUTED',
      22: 'CHAIN_INVALID_REAL_ACCOUNT',
      23: 'CHAIN_FAILED_SHIELDED_TX_PARSING',
      24: 'CHAIN_INVALID_SHIELDED_TX_PUB_KEY_HASH',
      25: 'CHAIN_NON_ASSOCIATED_COLD_KEY',
      26: 'CHAIN_DELEGATE_TAKE_TOO_LOW',
      27: 'CHAIN_DELEGATE_TAKE_TOO_HIGH',
      255: 'CHAIN_BAD_REQUEST',
    };
    expect([...POOL_CUSTOM_ERRORS.keys()].sort((a, b) => a - b)).toEqual(
      Object.keys(expected)
        .map(Number)
        .sort((a, b) => a - b),
    );
    for (const [n, code] of Object.entries(expected)) {
      const error = mapPoolError(new Error(`1010: Invalid Transaction: Custom error: ${n}`));
      expect(error?.code).toBe(code);
      expect(error?.context.customError).toBe(Number(n));
      expect(error?.context.source).toBe('pool');
    }
    expect(mapPoolError(new Error('1010: Invalid Transaction: Custom error: 6'))?.context.moduleErrors).toEqual([
      'SettingWeightsTooFast',
      'CommittingWeightsTooFast',
    ]);
  });
  it('maps the standard pool errors: 1014, outdated, future, ancient birth block, banned, already imported', () => {
    const cases: [string, string][] = [
      ['1014: Priority is too low: (0 vs 0)', 'CHAIN_TOO_LOW_PRIORITY'],
      ['1010: Invalid Transaction: Transaction is outdated', 'CHAIN_STALE'],
      ['1010: Invalid Transaction: Transaction will be valid in the future', 'CHAIN_FUTURE'],
      ['1010: Invalid Transaction: Transaction has an ancient birth block', 'CHAIN_ANCIENT_BIRTH_BLOCK'],
      ['1012: Transaction is temporarily banned', 'CHAIN_TEMPORARILY_BANNED'],
      ['1013: Transaction Already Imported', 'CHAIN_ALREADY_IMPORTED'],
      ['1010: Invalid Transaction: Transaction has a bad signature', 'CHAIN_BAD_PROOF'],
      ['1010: Invalid Transaction: Something new', 'CHAIN_INVALID_TRANSACTION'],
    ];
    for (const [message, code] of cases) expect(mapPoolError(new Error(message))?.code).toBe(code);
    expect(mapPoolError(new Error('socket hang up'))).toBeUndefined();
  });
  it('gives every code in the table advice, and client errors are SubnetErrors', () => {
    for (const info of CHAIN_ERRORS.values()) expect(info.advice.length).toBeGreaterThan(10);
    const error = chainError('InclusionTimeout', 'x', { source: 'client' });
    expect(isSubnetError(error, 'CHAIN_INCLUSION_TIMEOUT')).toBe(true);
    expect(error.context.retryable).toBe(true);
  });
});

describe("the README's error table is the package's table", () => {
  const README = resolve(dirname(fileURLToPath(import.meta.url)), '../../README.md');
  const rows = readFileSync(README, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `CHAIN_'))
    .map((line) => {
      const cells = line.slice(2, -2).split(' | ');
      return {
        code: cells[0]!.replaceAll('`', ''),
        chainName: cells[1]!.replaceAll('`', ''),
        source: cells[2]!.split(' ')[0],
        retry: cells[3],
        advice: cells.slice(4).join(' | '),
      };
    });

  it('lists each code once with the chain name, source, retry and advice the package gives it', () => {
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    // The retry column is what an operator's alerting keys on: `retryable` must say the same for every code.
    const differ = rows.filter((row) => {
      const info = CHAIN_ERRORS.get(row.code);
      return (
        info === undefined ||
        row.chainName !== info.chainName ||
        row.source !== info.source ||
        row.retry !== (info.retryable ? 'yes' : 'no') ||
        row.advice !== info.advice
      );
    });
    expect(differ.map((row) => [row, CHAIN_ERRORS.get(row.code)])).toEqual([]);
  });

  it('leaves out only the module errors outside weights, which the text before it describes', () => {
    const listed = new Set(rows.map((r) => r.code));
    const weights = new Set(MODULE_ERROR_NAMES);
    const missing = [...CHAIN_ERRORS.values()].filter((info) => !listed.has(info.code) && (info.source !== 'module' || weights.has(info.chainName)));
    expect(missing.map((info) => info.code)).toEqual([]);
  });
});
