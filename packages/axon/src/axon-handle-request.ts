import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isSubnetError } from '@subnet/core';

import type { BlacklistDecision, CallerInfo } from './axon-blacklist.js';
import { AXON_ERROR_CODES, axonError } from './errors.js';
import { parseJsonText } from './json-text.js';
import type { PriorityGate } from './priority-gate.js';
import { validatePy } from './py-validate.js';
import { pyFloatRepr, pyStrRepr } from './py-repr.js';
import type { NonceStore } from './nonce-store.js';
import { checkNonce } from './nonce-window.js';
import { signatureMessage, verifySynapseSignature } from './signature.js';
import type { Synapse } from './synapse.js';
import { hasNonFiniteFloat } from './python-json.js';
import { parseSynapseJson, SYNAPSE_DEFAULT_TIMEOUT, synapseBodyHash, synapseHeaders, synapseJson, synapseToPy } from './synapse.js';
import type { SynapseDefinition } from './synapse-definition.js';
import type { HeaderSynapse } from './synapse-headers.js';
import { emailContentType, parseSynapseHeaders } from './synapse-headers.js';
import type { TerminalInfo } from './terminal-info.js';
import { TERMINAL_FIELDS } from './terminal-info.js';

/** One synapse an axon serves. */
export interface AxonHandler {
  readonly definition: SynapseDefinition;
  /** The miner's work: gets the synapse read from the body, returns it with answers (or sets `axon.statusCode`). */
  forward(synapse: Synapse): Promise<Synapse> | Synapse;
  /** Overrides the axon's blacklist for this synapse. */
  blacklist?(synapse: HeaderSynapse, caller: CallerInfo | undefined): BlacklistDecision | Promise<BlacklistDecision>;
  /** Overrides the priority (default: the caller's stake). */
  priority?(synapse: HeaderSynapse, caller: CallerInfo | undefined): number;
}

/** Internal: what the request handler reads from the axon. */
export interface AxonContext {
  readonly hotkey: string;
  readonly uuid: string;
  readonly version: number;
  readonly handlers: ReadonlyMap<string, AxonHandler>;
  readonly caller: (hotkey: string) => CallerInfo | undefined;
  readonly blacklist: (hotkey: string | null, caller: CallerInfo | undefined) => BlacklistDecision;
  readonly gate: PriorityGate;
  /** Last accepted nonce per `hotkey:uuid`, bounded (nonce-store.ts). */
  readonly nonces: NonceStore;
  readonly nowNs: () => bigint;
  readonly maxBodyBytes: number;
  readonly onError?: (error: unknown) => void;
}

class AxonFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function terminalHeaders(side: 'axon' | 'dendrite', info: Partial<TerminalInfo>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [wire, key, type] of TERMINAL_FIELDS) {
    const v = info[key];
    if (v !== null && v !== undefined) out[`bt_header_${side}_${wire}`] = type === 'float' ? pyFloatRepr(v as number) : String(v);
  }
  return out;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new AxonFailure(413, `Request body exceeds ${limit} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/**
 * Serves one request through the SDK axon's pipeline (`AxonMiddleware.dispatch`, `bittensor/core/axon.py:1111-1211`):
 * route (404) → headers (500) → blacklist (403) → signature and nonce (401) → priority → body integrity (500;
 * malformed JSON 422) → forward → 200 with the compact JSON synapse, or `{"message": ...}` with the status and
 * `bt_header_axon_status_code` / `_status_message`. A signature is required (the SDK skips the check when it
 * is missing).
 *
 * @param ctx - the axon
 * @param req - the request
 * @param res - the response
 * @returns when answered
 * @example server.on('request', (req, res) => void handleAxonRequest(ctx, req, res))
 */
export async function handleAxonRequest(ctx: AxonContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = Date.now();
  const name = (req.url ?? '/').split('?')[0]?.split('/')[1] ?? '';
  const handler = ctx.handlers.get(name);
  if (handler === undefined) {
    const message = `Synapse name '${name}' not found. Available synapses [${[...ctx.handlers.keys()].map(pyStrRepr).join(', ')}]`;
    send(res, 404, { ...terminalHeaders('axon', { statusCode: 404, statusMessage: message }) }, JSON.stringify({ message }));
    return;
  }
  let header: HeaderSynapse | undefined;
  let axonInfo: Partial<TerminalInfo> = { version: ctx.version, uuid: ctx.uuid, nonce: ctx.nowNs(), hotkey: ctx.hotkey };
  const peer = { ip: req.socket.remoteAddress ?? null, port: req.socket.remotePort ?? null };
  try {
    if (req.method !== 'POST' && req.method !== 'GET') throw new AxonFailure(405, 'Method Not Allowed');
    try {
      header = parseSynapseHeaders(req.headers);
      checkInputObjects(handler.definition, req.headers);
    } catch {
      throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
    }
    axonInfo = { ...axonInfo, hotkey: header.axon.hotkey ?? ctx.hotkey, ip: header.axon.ip ?? null, port: header.axon.port ?? null };
    const hotkey = header.dendrite.hotkey ?? null;
    const caller = hotkey === null ? undefined : ctx.caller(hotkey);
    const [blacklisted, reason] = handler.blacklist === undefined ? ctx.blacklist(hotkey, caller) : await handler.blacklist(header, caller);
    if (blacklisted) throw new AxonFailure(403, `Forbidden. Key is blacklisted: ${reason}.`);
    const verified = verifyHeaders(ctx, header, req.headers.computed_body_hash === undefined);
    if (verified !== undefined) throw new AxonFailure(401, `Not Verified with error: ${verified}`);
    const priority = handler.priority === undefined ? Number(caller?.stake ?? 0n) : handler.priority(header, caller);
    const release = await ctx.gate.enter(priority);
    try {
      const raw = await readBody(req, ctx.maxBodyBytes);
      // FastAPI reads a non-empty body as JSON when there is no content-type or it is application/json or
      // application/*+json (email's parsing); any other type leaves bytes, which the model refuses: 422.
      const type = req.headers['content-type'];
      const [main, sub = ''] = (type === undefined ? 'application/json' : emailContentType(type)).split('/');
      if (raw.length > 0 && !(main === 'application' && (sub === 'json' || sub.endsWith('+json'))))
        throw new AxonFailure(422, 'Unsupported content type: send application/json');
      // `verify_body_integrity` (bittensor/core/axon.py:714-720) runs `json.loads(body.decode())`: an empty body
      // or a UTF-8 BOM raises JSONDecodeError there, outside FastAPI's body parsing, so 500.
      if (raw.length === 0 || (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf)) throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
      let body: Synapse;
      try {
        body = parseSynapseJson(handler.definition, new TextDecoder('utf-8', { fatal: true }).decode(raw));
      } catch (error) {
        if (isSubnetError(error, 'AXON_INVALID_JSON')) throw new AxonFailure(422, 'JSON decode error');
        throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
      }
      if (synapseBodyHash(handler.definition, body) !== header.computedBodyHash) throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
      let answer: Synapse;
      try {
        answer = await handler.forward(body);
      } catch (error) {
        ctx.onError?.(error);
        throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
      }
      const status = answer.axon.statusCode ?? 200;
      const message = answer.axon.statusMessage ?? (status === 200 ? 'Success' : null);
      const out: Synapse = { ...answer, axon: { ...answer.axon, statusCode: status, statusMessage: message, processTime: (Date.now() - started) / 1000 } };
      // `synapse_to_response` (bittensor/core/axon.py:1532-1539): Starlette renders with allow_nan=False (a NaN
      // or infinite float raises, so 500) and the headers are `to_headers()` of the answer, whose
      // `computed_body_hash` is recomputed from the answer's values.
      if (hasNonFiniteFloat(synapseToPy(out))) throw new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
      const bodyText = synapseJson(out, 'compact');
      send(res, status, synapseHeaders(handler.definition, out, synapseBodyHash(handler.definition, out)), bodyText);
    } finally {
      release();
    }
  } catch (error) {
    const failure = error instanceof AxonFailure ? error : new AxonFailure(500, `Internal Server Error #${randomUUID()}`);
    if (!(error instanceof AxonFailure)) ctx.onError?.(error);
    if (res.headersSent) return;
    const info = { ...axonInfo, statusCode: failure.status, statusMessage: failure.message, processTime: (Date.now() - started) / 1000 };
    const headers = {
      name,
      // `create_error_response` writes `to_headers()`, whose `timeout` is `str(synapse.timeout)`: the request's, or the
      // field's default 12.0 when the request had none or its headers did not parse (`Synapse()`, axon.py:1144-1149).
      timeout: pyFloatRepr(header?.timeout ?? SYNAPSE_DEFAULT_TIMEOUT),
      ...terminalHeaders('axon', info),
      ...terminalHeaders('dendrite', { ...(header?.dendrite ?? {}), ...peer }),
      computed_body_hash: header?.computedBodyHash ?? '',
    };
    send(
      res,
      failure.status,
      headers,
      failure.status === 422 ? JSON.stringify({ detail: [{ msg: failure.message }] }) : JSON.stringify({ message: failure.message }),
    );
  }
}

/**
 * The SDK axon builds the synapse from the headers alone before anything else (`from_headers`,
 * `bittensor/core/synapse.py:790-807, 852`; `bittensor/core/axon.py:1251-1255`): every required field (no
 * default) must come as `bt_header_input_obj_<field>`, base64 of JSON that validates as the field's type,
 * else the model fails and the request is 500. Throws on the first field that fails.
 */
function checkInputObjects(definition: SynapseDefinition, headers: IncomingMessage['headers']): void {
  for (const [field, spec] of definition.fields) {
    if ('default' in spec) continue;
    const name = `bt_header_input_obj_${field}`;
    const value = headers[name];
    if (typeof value !== 'string') throw axonError(AXON_ERROR_CODES.invalidHeader, 'a required field has no placeholder header', name);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
    validatePy(parseJsonText(text), spec.type, field);
  }
}

/** `default_verify` (`bittensor/core/axon.py:869-985`); returns the error detail, or `undefined` when verified (then stores the nonce). */
function verifyHeaders(ctx: AxonContext, header: HeaderSynapse, noBodyHashHeader: boolean): string | undefined {
  const d = header.dendrite;
  if (d.hotkey === undefined || d.hotkey === null) return 'No SS58 formatted address or public key provided.';
  const nonce = d.nonce ?? null;
  const key = `${d.hotkey}:${d.uuid ?? 'None'}`;
  const last = ctx.nonces.last(key);
  const decision = checkNonce({ nowNs: ctx.nowNs(), timeout: header.timeout, version: d.version ?? null, nonce, last });
  if (!decision.accepted) return decision.message;
  // A key the bounded store forgot is first-seen again: its replays stay refused by the floor (nonce-store.ts).
  const floor = ctx.nonces.floor();
  if (last === undefined && nonce !== null && floor !== undefined && nonce <= floor) return 'Nonce is too old, a newer one was last processed';
  if (d.signature === undefined || d.signature === null || d.signature === '') return 'Missing Signature';
  const message = signatureMessage({
    nonce: nonce ?? 0n,
    dendriteHotkey: d.hotkey,
    axonHotkey: ctx.hotkey,
    uuid: d.uuid ?? 'None',
    // `from_headers` sets computed_body_hash = headers.get("computed_body_hash", None): absent is None, "None" here.
    bodyHash: noBodyHashHeader ? 'None' : header.computedBodyHash,
  });
  const check = verifySynapseSignature(message, d.signature, d.hotkey);
  if (!check.ok) return check.reason;
  ctx.nonces.accept(key, nonce ?? 0n, ctx.nowNs());
  return undefined;
}
