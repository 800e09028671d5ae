import type { PyType, PyValue } from './py-value.js';
import { PY_NONE } from './py-value.js';

/** The SDK's `TerminalInfo` (`bittensor/core/synapse.py:151-238`): one side of a call. `null` is Python `None`. */
export interface TerminalInfo {
  readonly statusCode: number | null;
  readonly statusMessage: string | null;
  /** Seconds. */
  readonly processTime: number | null;
  readonly ip: string | null;
  readonly port: number | null;
  readonly version: number | null;
  /** `time.time_ns()` of the sender: above 2^53, so a bigint. */
  readonly nonce: bigint | null;
  readonly uuid: string | null;
  /** SS58 address. */
  readonly hotkey: string | null;
  /** `0x` + 128 hex. */
  readonly signature: string | null;
}

/** The wire names and Python types of `TerminalInfo`, in field order. */
export const TERMINAL_FIELDS = Object.freeze([
  ['status_code', 'statusCode', 'int'],
  ['status_message', 'statusMessage', 'str'],
  ['process_time', 'processTime', 'float'],
  ['ip', 'ip', 'str'],
  ['port', 'port', 'int'],
  ['version', 'version', 'int'],
  ['nonce', 'nonce', 'int'],
  ['uuid', 'uuid', 'str'],
  ['hotkey', 'hotkey', 'str'],
  ['signature', 'signature', 'str'],
] as const);

/** `TerminalInfo` as a model type (every field optional). */
export const TERMINAL_INFO_TYPE: PyType = { model: TERMINAL_FIELDS.map(([wire, , t]) => [wire, { optional: t }] as const) };

/** A `TerminalInfo` with every field `None`. */
export const EMPTY_TERMINAL: TerminalInfo = Object.freeze({
  statusCode: null,
  statusMessage: null,
  processTime: null,
  ip: null,
  port: null,
  version: null,
  nonce: null,
  uuid: null,
  hotkey: null,
  signature: null,
});

/** Internal: a TerminalInfo as a Python dict in field order. */
export function terminalToPy(info: TerminalInfo): PyValue {
  return {
    t: 'dict',
    v: new Map(
      TERMINAL_FIELDS.map(([wire, key, type]): [string, PyValue] => {
        const value = info[key];
        if (value === null) return [wire, PY_NONE];
        if (type === 'str') return [wire, { t: 'str', v: value as string }];
        if (type === 'float') return [wire, { t: 'float', v: value as number }];
        return [wire, { t: 'int', v: BigInt(value) }];
      }),
    ),
  };
}

/** Internal: a validated TerminalInfo dict back to the TS shape (ints beyond 2^53 other than the nonce are refused by the caller's types). */
export function terminalFromPy(value: PyValue): TerminalInfo {
  const fields = value.t === 'dict' ? value.v : new Map<string, PyValue>();
  const out: Record<string, unknown> = {};
  for (const [wire, key] of TERMINAL_FIELDS) {
    const v = fields.get(wire) ?? PY_NONE;
    if (v.t === 'none') out[key] = null;
    else if (v.t === 'int') out[key] = key === 'nonce' ? v.v : Number(v.v);
    else out[key] = v.v;
  }
  return Object.freeze(out) as unknown as TerminalInfo;
}
