/**
 * Internal: the few SCALE (parity-scale-codec) pieces `WeightsTlockPayload` needs: `Compact<u32>` lengths,
 * `Vec<u8>`, `Vec<u16>` and `u64`, all little-endian. Decoding mirrors parity-scale-codec: compact integers
 * must use their shortest mode, and a length must fit in the remaining input.
 */

/** Thrown by the decoder; callers map it to their own coded error. */
export class ScaleDecodeError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ScaleDecodeError';
  }
}

/** `Compact<u32>` encoding of a length (0 <= value < 2^32). */
export function encodeCompactU32(value: number): Uint8Array {
  if (value < 1 << 6) return Uint8Array.of(value << 2);
  if (value < 1 << 14) {
    const v = (value << 2) | 0b01;
    return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff);
  }
  if (value < 2 ** 30) {
    const v = ((value << 2) | 0b10) >>> 0;
    return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }
  return Uint8Array.of(0b11, value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
}

/** A cursor over SCALE bytes. */
export class ScaleReader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(length: number, path: string): void {
    if (this.remaining < length) {
      throw new ScaleDecodeError(`${path} needs ${length} bytes but only ${this.remaining} remain`, path, this.offset);
    }
  }

  byte(path: string): number {
    this.need(1, path);
    const value = this.bytes[this.offset] ?? 0;
    this.offset += 1;
    return value;
  }

  /** `Compact<u32>`, rejecting non-canonical (longer than necessary) encodings as parity-scale-codec does. */
  compactU32(path: string): number {
    const start = this.offset;
    const first = this.byte(path);
    const mode = first & 0b11;
    if (mode === 0) return first >>> 2;
    if (mode === 1) {
      const value = (first | (this.byte(path) << 8)) >>> 2;
      if (value < 1 << 6) throw new ScaleDecodeError(`${path}: non-canonical compact encoding`, path, start);
      return value;
    }
    if (mode === 2) {
      const raw = (first | (this.byte(path) << 8) | (this.byte(path) << 16) | (this.byte(path) << 24)) >>> 0;
      const value = raw >>> 2;
      if (value < 1 << 14) throw new ScaleDecodeError(`${path}: non-canonical compact encoding`, path, start);
      return value;
    }
    if (first >>> 2 !== 0) throw new ScaleDecodeError(`${path}: compact value does not fit in u32`, path, start);
    const value = (this.byte(path) | (this.byte(path) << 8) | (this.byte(path) << 16) | (this.byte(path) << 24)) >>> 0;
    if (value < 2 ** 30) throw new ScaleDecodeError(`${path}: non-canonical compact encoding`, path, start);
    return value;
  }

  /** `Vec<u8>`. */
  bytesVec(path: string): Uint8Array {
    const length = this.compactU32(`${path}.length`);
    this.need(length, path);
    const out = this.bytes.slice(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** `Vec<u16>`. */
  u16Vec(path: string): number[] {
    const length = this.compactU32(`${path}.length`);
    this.need(length * 2, path);
    const out: number[] = [];
    for (let i = 0; i < length; i++) {
      out.push((this.bytes[this.offset] ?? 0) | ((this.bytes[this.offset + 1] ?? 0) << 8));
      this.offset += 2;
    }
    return out;
  }

  /** `u64`. */
  u64(path: string): bigint {
    this.need(8, path);
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.offset, 8).getBigUint64(0, true);
    this.offset += 8;
    return value;
  }
}
