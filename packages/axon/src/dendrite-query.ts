import { u8aToHex } from '@polkadot/util';

import { axonUrl } from './axon-ip.js';
import { overlayTerminal } from './dendrite-result.js';
import { httpPost } from './http-post.js';
import type { HttpOutcome } from './http-post.js';
import { pyFloatRepr } from './py-repr.js';
import { signatureMessage } from './signature.js';
import type { Synapse } from './synapse.js';
import { parseSynapseJson, synapseBodyHash, synapseHeaders, synapseJson } from './synapse.js';
import type { SynapseDefinition } from './synapse-definition.js';
import { parseSynapseHeaders } from './synapse-headers.js';
import type { TerminalInfo } from './terminal-info.js';
import { EMPTY_TERMINAL } from './terminal-info.js';

/** Where a query goes: an axon of the metagraph. */
export interface AxonTarget {
  /** Address text (`axonIpToString` of the chain's u128). */
  readonly ip: string;
  readonly port: number;
  /** The axon's hotkey (SS58): it is in the signed message. */
  readonly hotkey: string;
}

/** Internal: what a dendrite holds. */
export interface DendriteState {
  readonly signer: { readonly address: string; sign(message: Uint8Array): Uint8Array };
  readonly uuid: string;
  readonly version: number;
  readonly externalIp: string | null;
  readonly maxResponseBytes: number;
  nextNonce(): bigint;
}

function failed(synapse: Synapse, code: number, message: string): Synapse {
  const status = { statusCode: code, statusMessage: message };
  return Object.freeze({ ...synapse, axon: overlayTerminal(synapse.axon, status), dendrite: overlayTerminal(synapse.dendrite, status) });
}

function readResponse(definition: SynapseDefinition, sent: Synapse, outcome: Extract<HttpOutcome, { kind: 'response' }>, startedMs: number): Synapse {
  const type = outcome.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/json\b/i.test(type))
    return failed(sent, 422, `Failed to parse response: unexpected content type ${String(type)}`);
  let result: Synapse;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(outcome.body);
    if (outcome.status === 200) {
      const got = parseSynapseJson(definition, text);
      result = { ...sent, values: got.values, axon: got.axon, dendrite: got.dendrite };
    } else {
      const json = JSON.parse(text) as unknown;
      const message =
        typeof json === 'object' && json !== null && !Array.isArray(json) && typeof (json as Record<string, unknown>).message === 'string'
          ? ((json as Record<string, unknown>).message as string)
          : null;
      result = { ...sent, axon: { ...sent.axon, statusCode: outcome.status, statusMessage: message } };
    }
    const fromHeaders = parseSynapseHeaders(outcome.headers);
    result = { ...result, axon: overlayTerminal(result.axon, fromHeaders.axon), dendrite: overlayTerminal(result.dendrite, fromHeaders.dendrite) };
  } catch (error) {
    return failed(sent, 422, `Failed to parse response: ${(error as Error).message}`);
  }
  const dendrite: TerminalInfo = {
    ...result.dendrite,
    statusCode: result.axon.statusCode,
    statusMessage: result.axon.statusMessage,
    processTime: result.axon.statusCode === 200 ? (Date.now() - startedMs) / 1000 : result.dendrite.processTime,
  };
  return Object.freeze({ ...result, dendrite: Object.freeze(dendrite) });
}

/**
 * One dendrite call as `bt.dendrite` makes it (`bittensor/core/dendrite.py:537-602, 685-786`): fills the
 * dendrite and axon terminal info (nonce, uuid, version, hotkeys), hashes the body, signs
 * `{nonce}.{hotkey}.{axon_hotkey}.{uuid}.{body_hash}`, POSTs the SDK's headers and JSON body, and reads the
 * answer back into the synapse: HTTP status (or `bt_header_axon_status_code`) into `dendrite.statusCode`;
 * 408 on timeout, 503 when refused or disconnected, 422 for anything unreadable, 400 for an oversized body.
 * Never throws for what the axon does.
 *
 * @param state - the dendrite
 * @param target - the axon
 * @param definition - the synapse class
 * @param synapse - the request
 * @param timeoutSeconds - total time limit
 * @returns the synapse as the SDK would hold it afterwards
 * @example await queryAxon(state, { ip: '127.0.0.1', port: 8091, hotkey }, Dummy, createSynapse(Dummy, { dummy_input: 7 }), 12)
 */
export async function queryAxon(
  state: DendriteState,
  target: AxonTarget,
  definition: SynapseDefinition,
  synapse: Synapse,
  timeoutSeconds: number,
): Promise<Synapse> {
  const nonce = state.nextNonce();
  const unsigned: Synapse = {
    ...synapse,
    name: definition.name,
    timeout: timeoutSeconds,
    dendrite: { ...EMPTY_TERMINAL, ip: state.externalIp, version: state.version, nonce, uuid: state.uuid, hotkey: state.signer.address },
    axon: { ...EMPTY_TERMINAL, ip: target.ip, port: target.port, hotkey: target.hotkey },
    computedBodyHash: '',
  };
  const bodyHash = synapseBodyHash(definition, unsigned);
  const message = signatureMessage({ nonce, dendriteHotkey: state.signer.address, axonHotkey: target.hotkey, uuid: state.uuid, bodyHash });
  const signature = u8aToHex(state.signer.sign(new TextEncoder().encode(message)));
  const sent: Synapse = Object.freeze({ ...unsigned, dendrite: Object.freeze({ ...unsigned.dendrite, signature }) });
  const headers = { ...synapseHeaders(definition, sent, bodyHash), 'content-type': 'application/json', accept: '*/*' };
  const startedMs = Date.now();
  const outcome = await httpPost(axonUrl(target.ip, target.port, definition.name), headers, synapseJson(sent), {
    timeoutMs: timeoutSeconds * 1000,
    maxBytes: state.maxResponseBytes,
  });
  switch (outcome.kind) {
    case 'response':
      return readResponse(definition, sent, outcome, startedMs);
    case 'timeout':
      return failed(sent, 408, `Request timeout after ${pyFloatRepr(timeoutSeconds)} seconds`);
    case 'refused':
      return failed(sent, 503, `Service unavailable at ${target.ip}:${target.port}/${definition.name}`);
    case 'disconnected':
      return failed(sent, 503, `Service disconnected: ${outcome.detail}`);
    case 'too-large':
      return failed(sent, 400, `Payload error: the response exceeds ${state.maxResponseBytes} bytes`);
    case 'other':
      return failed(sent, 422, `Failed to parse response: ${outcome.detail}`);
  }
}
