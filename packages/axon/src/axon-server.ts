import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { defaultBlacklist } from './axon-blacklist.js';
import type { CallerInfo } from './axon-blacklist.js';
import type { AxonContext, AxonHandler } from './axon-handle-request.js';
import { handleAxonRequest } from './axon-handle-request.js';
import { SDK_VERSION_AS_INT } from './dendrite.js';
import { AXON_ERROR_CODES, axonError } from './errors.js';
import { createNonceStore } from './nonce-store.js';
import { createPriorityGate } from './priority-gate.js';

/** Options of {@link createAxon}. */
export interface AxonOptions {
  /** This axon's hotkey (SS58): the signed message must name it. */
  readonly hotkey: string;
  /** The synapses served. */
  readonly handlers: readonly AxonHandler[];
  /** The caller's metagraph entry, `undefined` when the hotkey is not registered (blacklisted by default). */
  readonly caller: (hotkey: string) => CallerInfo | undefined;
  /** Refuse callers without a validator permit (`--blacklist.force_validator_permit`). */
  readonly requireValidatorPermit?: boolean;
  /** Refuse callers below this stake (rao). */
  readonly minStake?: bigint;
  /** Bind address (default 127.0.0.1) and port (default 8091; 0 picks one). */
  readonly host?: string;
  readonly port?: number;
  /** Forwards running at once; waiting requests are served by priority (stake). Default 4. */
  readonly maxConcurrentForwards?: number;
  /**
   * Most `hotkey:uuid` nonce entries kept (default 100,000); keys idle for longer than the nonce window plus 60 s
   * are forgotten first, and a forgotten key's replays stay refused (`createNonceStore`).
   */
  readonly maxNonceEntries?: number;
  /** Largest request body (default 8 MiB). */
  readonly maxBodyBytes?: number;
  /** Clock in ns since the Unix epoch (tests). */
  readonly nowNs?: () => bigint;
  /** Called with a forward's exception (never with request secrets). */
  readonly onError?: (error: unknown) => void;
}

/** A running axon. */
export interface Axon {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, closes connections. */
  close(): Promise<void>;
}

/**
 * Starts an axon server that a Python `bt.dendrite` (or this package's dendrite) can query: the SDK's routes,
 * headers, status codes and messages; signature and nonce window; body integrity; blacklist of unregistered
 * or non-permitted callers; forwards admitted by priority (stake).
 *
 * @param options - hotkey, handlers, metagraph lookup, limits
 * @returns the running axon
 * @throws SubnetError `AXON_SERVER_START` when it cannot listen
 * @example const axon = await createAxon({ hotkey, handlers: [{ definition: Dummy, forward: (s) => s }], caller: (h) => metagraph.get(h) })
 */
export async function createAxon(options: AxonOptions): Promise<Axon> {
  const ctx: AxonContext = {
    hotkey: options.hotkey,
    uuid: randomUUID(),
    version: SDK_VERSION_AS_INT,
    handlers: new Map(options.handlers.map((h) => [h.definition.name, h])),
    caller: options.caller,
    blacklist: (hotkey, caller) =>
      defaultBlacklist(hotkey, caller, {
        ...(options.requireValidatorPermit === undefined ? {} : { requireValidatorPermit: options.requireValidatorPermit }),
        ...(options.minStake === undefined ? {} : { minStake: options.minStake }),
      }),
    gate: createPriorityGate(options.maxConcurrentForwards ?? 4),
    nonces: createNonceStore(options.maxNonceEntries === undefined ? {} : { maxEntries: options.maxNonceEntries }),
    nowNs: options.nowNs ?? (() => BigInt(Date.now()) * 1_000_000n),
    maxBodyBytes: options.maxBodyBytes ?? 8 * 1024 * 1024,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
  const server = createServer((req, res) => {
    void handleAxonRequest(ctx, req, res);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      reject(axonError(AXON_ERROR_CODES.serverStart, `cannot listen on ${host}:${options.port ?? 8091}`, 'port', options.port ?? 8091, error));
    });
    server.listen(options.port ?? 8091, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return Object.freeze({
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  });
}
