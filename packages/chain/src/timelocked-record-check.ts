import { chainError } from './chain-error.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';

const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Checks that a value has the shape of a {@link TimelockedCommitRecord} (as `setWeights` returns it, or read
 * back from storage) before the chain is read for it.
 *
 * @param value - the record as given
 * @returns the record
 * @throws SubnetError `CHAIN_INVALID_INPUT` naming the first field that is wrong (`record.commitHash`, ...)
 */
export function checkTimelockedRecord(value: unknown): TimelockedCommitRecord {
  const fail = (field: string, got: unknown, what: string): never => {
    throw chainError('InvalidInput', `a timelocked commit record's ${field} is ${what}`, { source: 'client', path: `record.${field}`, value: got });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw chainError('InvalidInput', 'the timelocked commit record is an object', { source: 'client', path: 'record', value });
  }
  const r = value as Record<string, unknown>;
  if (typeof r['hotkey'] !== 'string') fail('hotkey', r['hotkey'], 'an SS58 string');
  for (const field of ['netuid', 'mecid', 'netuidIndex', 'uid']) {
    const v = r[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(field, v, 'a non-negative integer');
  }
  for (const field of ['uids', 'values']) {
    const v = r[field];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffff)) fail(field, v, 'a list of u16 integers');
  }
  for (const field of ['versionKey', 'revealRound', 'commitBlock', 'nonce']) {
    const v = r[field];
    if (typeof v !== 'bigint' || v < 0n) fail(field, v, 'a non-negative bigint');
  }
  for (const field of ['commitHash', 'commitBlockHash', 'extrinsicHash']) {
    const v = r[field];
    if (typeof v !== 'string' || !HASH.test(v)) fail(field, v, 'a 0x-prefixed 32-byte hex hash');
  }
  const prediction = r['prediction'];
  if (prediction !== null && (typeof prediction !== 'object' || typeof (prediction as { revealBlock?: unknown }).revealBlock !== 'bigint')) {
    fail('prediction', prediction, 'null or a prediction with a bigint revealBlock');
  }
  return value as TimelockedCommitRecord;
}
