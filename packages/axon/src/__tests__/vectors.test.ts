/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-explicit-any, @typescript-eslint/no-dynamic-delete -- the vectors are untyped JSON read as written */
import { createHash } from 'node:crypto';

import { hexToU8a, u8aToHex } from '@polkadot/util';
import { describe, expect, it } from 'vitest';

import { axonsStorageKey, decodeAxonInfo } from '../axon-info.js';
import { axonIpToString, axonUrl, serveAxonAccepts } from '../axon-ip.js';
import { computeBodyHash, EMPTY_BODY_HASH } from '../body-hash.js';
import { SDK_VERSION_AS_INT } from '../dendrite.js';
import { parseJsonText } from '../json-text.js';
import { checkNonce, NONCE_RULES } from '../nonce-window.js';
import { pyStr } from '../py-repr.js';
import { validatePy } from '../py-validate.js';
import type { PyType } from '../py-value.js';
import { signatureMessage, verifySynapseSignature } from '../signature.js';
import type { Synapse } from '../synapse.js';
import { createSynapse, synapseBodyHash, synapseHeaders, synapseJson } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';
import { EMPTY_TERMINAL } from '../terminal-info.js';
import { axonVectors } from './vectors.js';

/** Every vector of shared/vectors/axon-vectors.json (AXON.md section 11). */
const v = axonVectors();

/** The Python field types of each body_hash vector's class, written out from its `synapse_python`. */
const FIELD_TYPES: Record<string, Record<string, PyType>> = {
  'bh-sdk-golden': { a: 'int', b: 'int', c: { optional: 'int' }, d: { optional: { list: 'str' } } },
  'bh-no-hash-fields': { dummy_input: 'int', dummy_output: { optional: 'int' } },
  'bh-str': { prompt: 'str' },
  'bh-int': { n: 'int', big: 'int' },
  'bh-float': { a: 'float', b: 'float', c: 'float', d: 'float', e: 'float', f: 'float', g: 'float' },
  'bh-bool-none': { flag: 'bool', maybe: { optional: 'int' } },
  'bh-list': { scores: { list: 'float' }, names: { list: 'str' } },
  'bh-nested-dict': { meta: { dict: 'any' } },
  'bh-unicode': { text: 'str', tags: { list: 'str' } },
  'bh-order': { a: 'int', b: 'int' },
  'bh-nested-model': {
    inner: {
      model: [
        ['x', 'float'],
        ['y', { list: 'int' }],
      ],
    },
    weights: { dict: 'float' },
  },
};

const sha3 = (s: string) => createHash('sha3-256').update(s, 'utf8').digest('hex');

describe('body_hash: Python str() of validated values, sha3 of the joined sha3s (synapse.py:671-727)', () => {
  it.each((v.body_hash as any[]).map((b: any) => [b.id, b] as [string, any]))('%s', (_id, b: any) => {
    const types = FIELD_TYPES[b.id as string]!;
    const values = (b.required_hash_fields_order as string[]).map((f) => validatePy(parseJsonText(b.request_body_fields_json[f] as string), types[f]!, f));
    expect(values.map(pyStr)).toEqual(b.str_values);
    expect(values.map((x) => sha3(pyStr(x)))).toEqual(b.field_sha3_256);
    expect(computeBodyHash(values)).toBe(b.body_hash);
  });

  it('no hashed fields hash the empty string', () => {
    expect(EMPTY_BODY_HASH).toBe(sha3(''));
  });
});

describe('signature_message: {nonce}.{dendrite}.{axon}.{uuid}.{body_hash}', () => {
  it.each((v.signature_message as any[]).filter((m: any) => m.kind === 'dendrite_request').map((m: any) => [m.id, m] as [string, any]))('%s', (_id, m: any) => {
    const message = signatureMessage({
      nonce: BigInt(m.nonce),
      dendriteHotkey: m.dendrite_hotkey,
      axonHotkey: m.axon_hotkey,
      uuid: m.uuid,
      bodyHash: m.body_hash,
    });
    expect(message).toBe(m.message);
    expect(u8aToHex(new TextEncoder().encode(message))).toBe(`0x${m.message_utf8_hex as string}`);
    expect(new TextEncoder().encode(message).length).toBe(m.message_length_bytes);
  });

  it('sm-axon-side: the axon-side message has no body hash', () => {
    const m = v.signature_message.find((x: any) => x.id === 'sm-axon-side');
    expect(`${m.nonce}.${m.dendrite_hotkey}.${m.axon_hotkey}.${m.uuid}`).toBe(m.message);
  });
});

describe('sr25519_signature: bittensor_wallet Keypair.verify (raw, then <Bytes>-wrapped)', () => {
  it.each((v.sr25519_signature as any[]).map((s: any) => [s.id, s] as [string, any]))('%s', (_id, s: any) => {
    expect(verifySynapseSignature(s.message, s.signature_header_value, s.signer_ss58).ok).toBe(s.python_keypair_verify_expected);
    expect(verifySynapseSignature(s.tampered_message, s.signature_header_value, s.signer_ss58).ok).toBe(s.tampered_verify_expected);
  });

  it('refuses a signature without 0x or of the wrong length, as the wallet does', () => {
    const s = v.sr25519_signature[0];
    expect(verifySynapseSignature(s.message, (s.signature_header_value as string).slice(2), s.signer_ss58)).toEqual({
      ok: false,
      reason: 'Invalid signature format. Expected hex string.',
    });
    expect(verifySynapseSignature(s.message, (s.signature_header_value as string).slice(0, 100), s.signer_ss58)).toEqual({
      ok: false,
      reason: 'Invalid signature',
    });
  });
});

const DEFINITIONS = {
  'req-dummy': defineSynapse({
    name: 'Dummy',
    fields: [
      ['dummy_input', { type: 'int' }],
      ['dummy_output', { type: { optional: 'int' }, default: null }],
    ],
    requiredHashFields: [],
  }),
  'req-hashed': defineSynapse({
    name: 'QuerySynapse',
    fields: [
      ['query', { type: 'str' }],
      ['top_k', { type: 'int', default: 5 }],
      ['weights', { type: { list: 'float' } }],
      ['results', { type: { optional: { list: 'str' } }, default: null }],
    ],
    requiredHashFields: ['query', 'weights'],
  }),
} as const;

/** The request a vector describes, with the CPython-specific sizes and the (randomized) signature of the vector. */
export function vectorRequest(r: any): { definition: (typeof DEFINITIONS)['req-dummy']; synapse: Synapse } {
  const definition = DEFINITIONS[r.id as keyof typeof DEFINITIONS];
  const call = r.dendrite_call;
  const body = JSON.parse(r.body_json_text as string);
  const synapse: Synapse = {
    ...createSynapse(definition, r.constructed_with),
    timeout: call.timeout,
    totalSize: BigInt(body.total_size as number),
    dendrite: {
      ...EMPTY_TERMINAL,
      ip: call.dendrite_external_ip,
      version: call.version,
      nonce: BigInt(call.nonce),
      uuid: call.uuid,
      hotkey: call.dendrite_hotkey,
      signature: r.headers.bt_header_dendrite_signature,
    },
    axon: { ...EMPTY_TERMINAL, ip: call.axon_ip, port: call.axon_port, hotkey: call.axon_hotkey },
  };
  return { definition, synapse };
}

describe('request: headers and body as bt.dendrite sends them', () => {
  it.each((v.request as any[]).map((r: any) => [r.id, r] as [string, any]))(
    '%s: body text, body hash, every header but the CPython sizes, a signature that verifies',
    (_id, r: any) => {
      const { definition, synapse } = vectorRequest(r);
      expect(synapseJson(synapse)).toBe(r.body_json_text);
      const hash = synapseBodyHash(definition, synapse);
      expect(hash).toBe(r.body_hash);
      const headers = synapseHeaders(definition, synapse, hash);
      const expected = { ...r.headers };
      for (const name of r.headers_cpython_specific as string[]) {
        delete expected[name];
        delete headers[name];
      }
      expect(headers).toEqual(expected);
      expect(axonUrl(r.dendrite_call.axon_ip, r.dendrite_call.axon_port, definition.name)).toBe(r.url);
      expect(verifySynapseSignature(r.signature_message, r.headers.bt_header_dendrite_signature, r.dendrite_call.dendrite_hotkey).ok).toBe(true);
      expect(`${synapse.dendrite.hotkey ?? ''}:${synapse.dendrite.uuid ?? ''}`).toBe(r.axon_endpoint_key);
    },
  );
});

describe('axon_ip: the SDK ip text, a well-formed URL, what serve_axon accepts', () => {
  it.each((v.axon_ip as any[]).map((a: any) => [a.id, a] as [string, any]))('%s', (_id, a: any) => {
    const ip = axonIpToString(BigInt(a.ip_int));
    expect(ip).toBe(a.sdk_ip_string);
    expect(ip !== '0.0.0.0').toBe(a.sdk_is_serving);
    expect(axonUrl(ip, a.port, 'Dummy')).toBe(a.well_formed_url);
    expect(serveAxonAccepts({ ip: BigInt(a.ip_int), ipType: a.ip_type, port: a.port })).toBe(a.chain_serve_axon_accepts);
  });
});

describe('axon_info_scale and axons_storage_key', () => {
  it.each((v.axon_info_scale as any[]).map((s: any) => [s.id, s] as [string, any]))('%s decodes', (_id, s: any) => {
    const info = decodeAxonInfo(hexToU8a(s.scale_hex));
    expect(info).toEqual({
      block: BigInt(s.fields.block),
      version: s.fields.version,
      ip: BigInt(s.fields.ip),
      port: s.fields.port,
      ipType: s.fields.ip_type,
      protocol: s.fields.protocol,
      placeholder1: s.fields.p1,
      placeholder2: s.fields.p2,
    });
    expect(axonIpToString(info.ip)).toBe(s.sdk_ip_string);
  });

  it.each((v.axons_storage_key as any[]).map((k: any) => [k.id, k] as [string, any]))('%s', (_id, k: any) => {
    expect(axonsStorageKey(k.netuid, k.hotkey)).toBe(k.key);
  });
});

describe('nonce_window: default_verify nonce rules (axon.py:933-983)', () => {
  it.each((v.nonce_window as any[]).map((n: any) => [n.id, n] as [string, any]))('%s', (_id, n: any) => {
    const decision = checkNonce({
      nowNs: BigInt(n.axon_now_ns),
      timeout: n.timeout,
      version: n.dendrite_version,
      nonce: BigInt(n.nonce),
      last: n.last_nonce_for_endpoint_key === null ? undefined : BigInt(n.last_nonce_for_endpoint_key),
    });
    expect(decision.accepted).toBe(n.accepted);
    if (!decision.accepted) expect(`Not Verified with error: ${decision.message}`).toBe(n.message);
  });

  it('a missing nonce is refused', () => {
    expect(checkNonce({ nowNs: 1n, timeout: 12, version: 10002000, nonce: null, last: undefined })).toEqual({ accepted: false, message: 'Missing Nonce' });
  });
});

describe('constants', () => {
  it('version_as_int, V_7_2_0, ALLOWED_DELTA', () => {
    expect(SDK_VERSION_AS_INT).toBe(v.constants.version_as_int_v10_2_0);
    expect(NONCE_RULES.versionWithWindow).toBe(v.constants.V_7_2_0);
    expect(NONCE_RULES.allowedDeltaNs).toBe(BigInt(v.constants.ALLOWED_DELTA_ns));
  });
});
