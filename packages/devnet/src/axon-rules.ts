import type { AxonState, ChainState } from './chain-state.js';
import type { DispatchOutcome } from './devnet-call.js';

/** A decoded `serve_axon` call (opentensor/subtensor ab0cb2e52 `macros/dispatches.rs:824`, call index 4). */
export interface ServeAxonCall {
  readonly kind: 'serve_axon';
  readonly netuid: number;
  readonly version: number;
  readonly ip: bigint;
  readonly port: number;
  readonly ipType: number;
  readonly protocol: number;
  readonly placeholder1: number;
  readonly placeholder2: number;
}

const U32_MAX = 0xffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

/** `is_valid_ip_address(ip_type, addr, allow_zero = true)` (ab0cb2e52 `subnets/serving.rs:280`). */
function validIpAddress(ipType: number, ip: bigint): boolean {
  if (ipType === 4 && (ip >= U32_MAX || ip === 0x7f00_0001n)) return false;
  if (ipType === 6 && (ip === U128_MAX || ip === 1n)) return false;
  return true;
}

/**
 * `validate_serve_axon` (ab0cb2e52 `subnets/serving.rs:321`; Subtensor main 14bc6f9f9 `:289`), in the chain's
 * order: the hotkey is registered (on finney spec 393 on some subnet, `serving.rs:332-336`; on main on the netuid
 * it serves, `serving.rs:300-304`), `ip_type` is 4 or 6, the address is valid (zero allowed), `ServingRateLimit`
 * blocks passed since the last serve (0 disables it), the port is not 0.
 *
 * @param state - the chain state
 * @param now - the block the call executes in
 * @param who - the signer (hex)
 * @param call - the call
 * @returns the module error name, or null
 * @example validateServeAxon(state, 10n, alice, call)
 */
export function validateServeAxon(state: ChainState, now: bigint, who: string, call: ServeAxonCall): string | null {
  const subnet = state.subnets.get(call.netuid);
  const registered =
    state.runtime === 'stateful'
      ? subnet !== undefined && subnet.neurons.some((n) => n.hotkey === who)
      : [...state.subnets.values()].some((s) => s.neurons.some((n) => n.hotkey === who));
  if (!registered) return 'HotKeyNotRegisteredInNetwork';
  if (call.ipType !== 4 && call.ipType !== 6) return 'InvalidIpType';
  if (!validIpAddress(call.ipType, call.ip)) return 'InvalidIpAddress';
  const previous = subnet?.neurons.find((n) => n.hotkey === who)?.axon ?? subnet?.axons.get(who) ?? null;
  const limit = subnet?.servingRateLimit ?? 50n;
  const last = previous?.block ?? 0n;
  if (!(limit === 0n || last === 0n || now - last >= limit)) return 'ServingRateLimitExceeded';
  if (call.port === 0) return 'InvalidPort';
  return null;
}

/**
 * The pool guard of `serve_axon` (`SubtensorTransactionExtension`, ab0cb2e52 `extensions/subtensor.rs:237`):
 * `validate_serve_axon` mapped by `result_to_validity` (`HotKeyNotRegisteredInNetwork` 10, `InvalidIpAddress`
 * 11, `ServingRateLimitExceeded` 12, `InvalidPort` 13, anything else `BadRequest` 255).
 *
 * @returns the `Custom error` code, or null
 * @example serveAxonPoolGuard(state, 10n, alice, call)
 */
export function serveAxonPoolGuard(state: ChainState, now: bigint, who: string, call: ServeAxonCall): number | null {
  const error = validateServeAxon(state, now, who, call);
  if (error === null) return null;
  const codes: Record<string, number> = { HotKeyNotRegisteredInNetwork: 10, InvalidIpAddress: 11, ServingRateLimitExceeded: 12, InvalidPort: 13 };
  return Object.hasOwn(codes, error) ? (codes[error] ?? 255) : 255;
}

/**
 * `do_serve_axon` (ab0cb2e52 `subnets/serving.rs:58`): validates, stores `Axons[(netuid, hotkey)]` with the block
 * and emits `AxonServed(netuid, hotkey)`. On the legacy runtime a hotkey registered elsewhere may serve on any netuid,
 * as finney spec 393 allows; the devnet keeps such an axon only for a subnet it runs (the chain would store it for any
 * netuid). On main only a hotkey registered on the netuid gets this far.
 *
 * @returns the dispatch outcome
 * @example serveAxon(state, 10n, alice, call)
 */
export function serveAxon(state: ChainState, now: bigint, who: string, call: ServeAxonCall): DispatchOutcome {
  const error = validateServeAxon(state, now, who, call);
  if (error !== null) return { ok: false, error, events: [] };
  const axon: AxonState = {
    block: now,
    version: call.version,
    ip: call.ip,
    port: call.port,
    ipType: call.ipType,
    protocol: call.protocol,
    placeholder1: call.placeholder1,
    placeholder2: call.placeholder2,
  };
  const subnet = state.subnets.get(call.netuid);
  const neuron = subnet?.neurons.find((n) => n.hotkey === who);
  if (neuron !== undefined) neuron.axon = axon;
  else subnet?.axons.set(who, axon);
  return { ok: true, events: [{ pallet: 'SubtensorModule', name: 'AxonServed', fields: [call.netuid, who] }] };
}
