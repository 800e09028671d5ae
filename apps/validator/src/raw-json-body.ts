import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Replaces fastify's JSON body parser with one that first hands the exact bytes received to `beforeParsing`
 * (signed requests sign the sha256 of those bytes). Parsing itself is fastify's own default JSON parser, so
 * malformed, empty and oversized bodies fail exactly as before. Keys spelled `__proto__` or `constructor`
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
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      // JSON is UTF-8 (RFC 8259): bytes that are not are refused as malformed (400 MALFORMED_JSON), never
      // read with U+FFFD in their place, which would store and score a text the sender never sent.
      done(Object.assign(new SyntaxError('the body is not valid UTF-8'), { statusCode: 400 }), undefined);
      return;
    }
    void parseJson(request, text, done);
  }
}

/** Strict UTF-8 (a byte-order mark is left in the text, where fastify's parser skips it as before). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
