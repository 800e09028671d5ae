import { randomUUID } from 'node:crypto';

import type { AxonTarget, DendriteState } from './dendrite-query.js';
import { queryAxon } from './dendrite-query.js';
import type { Synapse } from './synapse.js';
import type { SynapseDefinition } from './synapse-definition.js';

/** `version_as_int` of SDK 10.2.0 (`bittensor/core/settings.py:163-174`): what this dendrite reports by default. */
export const SDK_VERSION_AS_INT = 10_002_000;

/** Options of {@link createDendrite}. */
export interface DendriteOptions {
  /** The validator hotkey: its SS58 `address` and an sr25519 `sign` (a keyring pair or `@subnet/chain` signer). */
  readonly signer: { readonly address: string; sign(message: Uint8Array): Uint8Array };
  /** One uuid per dendrite, as the SDK (default a random UUID). */
  readonly uuid?: string;
  /** `bt_header_dendrite_version` (default 10002000; ≥ 7002000 turns on the axon's freshness window). */
  readonly version?: number;
  /** The self-reported external ip (default none; axons use the TCP peer anyway). */
  readonly externalIp?: string;
  /**
   * Largest response body read (default 1 MiB, the validator's default; beyond it the call is a 400 payload
   * error). An answer is read whole and converted synchronously: one packed with small values costs about
   * 0.3 s and 100 MB per MiB, so raise it only to what honest answers need.
   */
  readonly maxResponseBytes?: number;
  /** Clock in ns since the Unix epoch (default `Date.now()` based; nonces are made strictly increasing). */
  readonly nowNs?: () => bigint;
}

/** A dendrite: queries axons as `bt.dendrite` does. */
export interface Dendrite {
  readonly address: string;
  readonly uuid: string;
  /**
   * Sends one synapse to one axon.
   *
   * @param target - the axon (ip, port, hotkey)
   * @param definition - the synapse class
   * @param synapse - the request (`createSynapse`)
   * @param timeoutSeconds - total limit (SDK default 12)
   * @returns the synapse with the answer and `dendrite.statusCode`; never rejects for what the axon does
   */
  query(target: AxonTarget, definition: SynapseDefinition, synapse: Synapse, timeoutSeconds?: number): Promise<Synapse>;
}

/**
 * Creates a dendrite that speaks the Python SDK v10 protocol to any axon (Python or this package's).
 *
 * @param options - signer, uuid, version, limits
 * @returns the dendrite
 * @example
 * const dendrite = createDendrite({ signer: keyring.addFromUri('//Alice') });
 * const answer = await dendrite.query({ ip: '127.0.0.1', port: 8091, hotkey: minerHotkey }, Dummy, createSynapse(Dummy, { dummy_input: 7 }));
 */
export function createDendrite(options: DendriteOptions): Dendrite {
  const now = options.nowNs ?? (() => BigInt(Date.now()) * 1_000_000n);
  let last = 0n;
  const state: DendriteState = {
    signer: options.signer,
    uuid: options.uuid ?? randomUUID(),
    version: options.version ?? SDK_VERSION_AS_INT,
    externalIp: options.externalIp ?? null,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
    nextNonce: () => {
      const t = now();
      last = t > last ? t : last + 1n;
      return last;
    },
  };
  return Object.freeze({
    address: options.signer.address,
    uuid: state.uuid,
    query: (target: AxonTarget, definition: SynapseDefinition, synapse: Synapse, timeoutSeconds = 12) =>
      queryAxon(state, target, definition, synapse, timeoutSeconds),
  });
}
