import { u8aToHex } from '@polkadot/util';

import { axonUrl } from './axon-ip.js';
import { overlayTerminal } from './dendrite-result.js';
import { httpPost } from './http-post.js';
import type { JsonNode } from './json-text.js';
import { parseJsonText } from './json-text.js';
import type { HttpOutcome } from './http-post.js';
import { pyFloatRepr } from './py-repr.js';
import { signatureMessage } from './signature.js';
import type { Synapse } from './synapse.js';
import { synapseBodyHash, synapseFromJson, synapseHeaders, synapseJson } from './synapse.js';
import type { SynapseDefinition } from './synapse-definition.js';
import { emailContentType, parseResponseHeaders } from './synapse-headers.js';
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

/**
 * The SDK's `process_error_message` (`bittensor/core/dendrite.py:263-306`): the status and message go to
 * `dendrite` only; `axon` keeps what it held when the call failed.
 */
function failed(synapse: Synapse, code: number, message: string): Synapse {
  return Object.freeze({ ...synapse, dendrite: overlayTerminal(synapse.dendrite, { statusCode: code, statusMessage: message }) });
}

/** The media type aiohttp's `response.json()` checks (`application/octet-stream` when absent). */
function mediaType(value: string | string[] | undefined): string {
  return typeof value === 'string' ? emailContentType(value) : 'application/octet-stream';
}

/** aiohttp's `json_re` (`^application/(?:[\w.+-]+?\+)?json`, matched at the start only). */
const AIOHTTP_JSON_TYPE = /^application\/(?:[\p{L}\p{N}_.+-]+?\+)?json/u;

/** The bytes Python's `bytes.strip()` removes (aiohttp strips the body before decoding it). */
function isPyByteSpace(b: number | undefined): boolean {
  return b === 0x20 || (b !== undefined && b >= 0x09 && b <= 0x0d);
}

function parseFailure(synapse: Synapse, detail: string): Synapse {
  return failed(synapse, 422, `Failed to parse response: ${detail}`);
}

/**
 * What `bt.dendrite.call` makes of an HTTP answer (`bittensor/core/dendrite.py:578-591, 726-786`), step by
 * step, so a failure part-way leaves the synapse as the SDK's does: `response.json()` (aiohttp: JSON media
 * type, body stripped, empty → `None`, UTF-8 with a BOM refused by `json.loads`); on 200 every field but the
 * frozen `computed_body_hash` taken from `cls(**json)`; otherwise `axon.status_code` = the HTTP status, then
 * `axon.status_message` = `json.get("message")` (a dict is needed, and a string or null); then the headers
 * (`parseResponseHeaders`) override non-null fields; `dendrite.status_code/message` = the axon's; and
 * `dendrite.process_time` = elapsed seconds, for any status. Any failure: 422 `Failed to parse response`.
 */
function readResponse(definition: SynapseDefinition, sent: Synapse, outcome: Extract<HttpOutcome, { kind: 'response' }>, startedMs: number): Synapse {
  const type = mediaType(outcome.headers['content-type']);
  if (!AIOHTTP_JSON_TYPE.test(type)) return parseFailure(sent, `Attempt to decode JSON with unexpected mimetype: ${type}`);
  let from = 0;
  let to = outcome.body.length;
  while (from < to && isPyByteSpace(outcome.body[from])) from++;
  while (to > from && isPyByteSpace(outcome.body[to - 1])) to--;
  let root: JsonNode | null = null;
  if (from < to) {
    try {
      root = parseJsonText(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(outcome.body.subarray(from, to)));
    } catch (error) {
      return parseFailure(sent, (error as Error).message);
    }
  }
  let result: Synapse;
  if (outcome.status === 200) {
    if (root?.kind !== 'object') return parseFailure(sent, `argument after ** must be a mapping, not ${root === null ? 'NoneType' : root.kind}`);
    let got: Synapse;
    try {
      got = synapseFromJson(definition, root);
    } catch (error) {
      return parseFailure(sent, (error as Error).message);
    }
    result = {
      ...sent,
      timeout: got.timeout,
      totalSize: got.totalSize,
      headerSize: got.headerSize,
      values: got.values,
      axon: got.axon,
      dendrite: got.dendrite,
    };
    // `dendrite: null` / `axon: null` is set on the synapse, then `.__dict__.update` fails on None
    // (`bittensor/core/dendrite.py:769-782`). For `dendrite` the SDK's own error handler then fails too and the
    // whole `forward` raises; here it is this axon's 422.
    for (const side of ['dendrite', 'axon'] as const)
      if (root.entries.get(side)?.kind === 'null') return parseFailure(result, "'NoneType' object has no attribute '__dict__'");
  } else {
    result = { ...sent, axon: { ...sent.axon, statusCode: outcome.status } };
    if (root?.kind !== 'object') return parseFailure(result, `'${root === null ? 'NoneType' : root.kind}' object has no attribute 'get'`);
    const message = root.entries.get('message');
    if (message !== undefined && message.kind !== 'null' && message.kind !== 'string')
      return parseFailure(result, `status_message: Input should be a valid string, got JSON ${message.kind}`);
    result = { ...result, axon: { ...result.axon, statusMessage: message?.kind === 'string' ? message.value : null } };
  }
  try {
    const fromHeaders = parseResponseHeaders(outcome.rawHeaders);
    result = { ...result, axon: overlayTerminal(result.axon, fromHeaders.axon), dendrite: overlayTerminal(result.dendrite, fromHeaders.dendrite) };
  } catch (error) {
    return parseFailure(result, (error as Error).message);
  }
  const dendrite: TerminalInfo = {
    ...result.dendrite,
    statusCode: result.axon.statusCode,
    statusMessage: result.axon.statusMessage,
    processTime: (Date.now() - startedMs) / 1000,
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
