import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { SubnetError } from '@subnet/core';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { isBlank, isWellFormed } from './text-rules.js';

const TWO_POW_64 = 1n << 64n;

/**
 * The verification-group seed: sha256 of the UTF-8 bytes of `${blockHash}|${taskId}` (SPEC section B).
 *
 * @param blockHash - the block hash exactly as given to {@link selectVerificationGroup} (`0x` + 64 lowercase hex)
 * @param taskId - the task id
 * @returns the 32 seed bytes, as lowercase hex
 * @throws SubnetError `CONSENSUS_INVALID_ARGUMENT` for a block hash that is not `0x` + 64 lowercase hex
 *   digits (path `blockHash`) or a task id that is not a well-formed, non-blank string (path `taskId`)
 * @example verificationSeed('0x' + '00'.repeat(32), 'task-1') // 64 hex characters
 */
export function verificationSeed(blockHash: string, taskId: string): string {
  if (typeof blockHash !== 'string' || !/^0x[0-9a-f]{64}$/.test(blockHash)) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a block hash is 0x followed by 64 lowercase hex digits', {
      context: { path: 'blockHash', value: blockHash },
    });
  }
  if (typeof taskId !== 'string' || !isWellFormed(taskId) || isBlank(taskId)) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidArgument, 'a task id is a well-formed, non-blank string', {
      context: { path: 'taskId', value: taskId },
    });
  }
  return bytesToHex(sha256(utf8ToBytes(`${blockHash}|${taskId}`)));
}

/** A stream of uniform draws, recomputable from the seed alone (see the README for the exact spec). */
export interface DrawStream {
  /** The next u64 of the stream. */
  nextU64(): bigint;
  /** A uniform integer in [0, range) by rejection sampling; `range` is a positive safe integer. */
  uniformIndex(range: number): number;
}

/**
 * Creates the draw stream of a seed: block i (i = 0, 1, ...) is sha256(seed ‖ u32be(i)); each block gives
 * four u64 values read big-endian from bytes 0-7, 8-15, 16-23, 24-31, consumed in that order. An index in
 * [0, r) takes the next u64 x, rejects it while x >= 2^64 - (2^64 mod r), and returns x mod r.
 */
export function createDrawStream(seedHex: string): DrawStream {
  const input = new Uint8Array(36);
  for (let i = 0; i < 32; i++) input[i] = Number.parseInt(seedHex.slice(2 * i, 2 * i + 2), 16);
  const inputView = new DataView(input.buffer);
  let counter = 0;
  let block: DataView | undefined;
  let offset = 32;
  const nextU64 = (): bigint => {
    if (block === undefined || offset === 32) {
      inputView.setUint32(32, counter, false);
      counter += 1;
      const bytes = sha256(input);
      block = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      offset = 0;
    }
    const value = block.getBigUint64(offset, false);
    offset += 8;
    return value;
  };
  return {
    nextU64,
    uniformIndex(range) {
      const r = BigInt(range);
      const limit = TWO_POW_64 - (TWO_POW_64 % r);
      for (;;) {
        const x = nextU64();
        if (x < limit) return Number(x % r);
      }
    },
  };
}
