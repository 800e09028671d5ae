import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Replaces fastify's JSON body parser with one that first hands the exact bytes received to `beforeParsing`
 * (signed requests sign the sha256 of those bytes). Parsing is what fastify's default JSON parser does with `'ignore'`
 * for both poisoning checks (a leading byte-order mark skipped, then `JSON.parse`, once), so malformed, empty and
 * oversized bodies fail as before, and a malformed one with `JSON.parse`'s reason. Keys spelled `__proto__` or `constructor`
 * are kept as the own keys `JSON.parse` makes of them (docs/spec.md section 0: every object key is data):
 * they are valid JSON, so they are judged by the record's schema like any other key, not refused as
 * malformed; nothing here or downstream assigns them onto an object.
 *
 * @param app - the fastify instance, before its routes run
 * @param beforeParsing - runs on the exact bytes before they are decoded and parsed; an error it returns (or throws)
 *   ends the request there, the body never parsed (signed requests are authenticated here, docs/spec.md G.18)
 * @returns nothing
 * @example parseJsonAfterByteCheck(app, async (request, bytes) => (bytes.length > 0 ? undefined : new Error('empty')))
 */
export function parseJsonAfterByteCheck(app: FastifyInstance, beforeParsing: (request: FastifyRequest, bytes: Uint8Array) => Promise<Error | undefined>): void {
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    beforeParsing(request, bytes).then(
      (refused) => {
        if (refused === undefined) parse(request, bytes, done);
        else done(refused, undefined);
      },
      (error: unknown) => {
        done(error instanceof Error ? error : new Error(String(error)), undefined);
      },
    );
  });

  function parse(request: FastifyRequest, bytes: Buffer, done: (error: Error | null, body?: unknown) => void): void {
    // fastify's own refusal of an empty body (FST_ERR_CTP_EMPTY_JSON_BODY), as before.
    if (bytes.length === 0) {
      void parseJson(request, '', done);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      // JSON is UTF-8 (RFC 8259): bytes that are not are refused as malformed (400 MALFORMED_JSON), never
      // read with U+FFFD in their place, which would store and score a text the sender never sent.
      done(Object.assign(new SyntaxError(NOT_UTF8_MESSAGE), { statusCode: 400 }), undefined);
      return;
    }
    // Parsed here, once, as fastify's parser parses it (secure-json-parse with 'ignore' and 'ignore': a leading
    // byte-order mark skipped, then JSON.parse, nothing scanned after), because that parser drops JSON.parse's reason
    // (FST_ERR_CTP_INVALID_JSON_BODY): reading the text a second time for it would double what a malformed body costs
    // (a deeply nested one: about 0.5 s of the event loop per MiB).
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (error) {
      // Its reason, which the server's 400 MALFORMED_JSON gives the sender (server.ts malformedJsonCause).
      done(Object.assign(new SyntaxError(error instanceof Error ? error.message : ''), { statusCode: 400 }), undefined);
      return;
    }
    done(null, parsed);
  }
}

/** The message of the error a body that is not UTF-8 is refused with (the server's 400 `MALFORMED_JSON` says so). */
export const NOT_UTF8_MESSAGE = 'the body is not valid UTF-8';

/** Strict UTF-8 (a byte-order mark is left in the text, where fastify's parser skips it as before). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
