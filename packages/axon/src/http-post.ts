import { request } from 'node:http';

/** What came back from an HTTP POST, or why nothing did. */
export type HttpOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
      readonly rawHeaders: readonly string[];
      readonly body: Buffer;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'refused'; readonly detail: string }
  | { readonly kind: 'disconnected'; readonly detail: string }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'other'; readonly detail: string };

/**
 * One HTTP/1.1 POST with a total time limit covering connect, send and reading the whole body (as aiohttp's
 * `ClientTimeout(total=...)`) and a cap on the response size. Never throws.
 *
 * @param url - the URL
 * @param headers - request headers
 * @param body - request body
 * @param limits - total timeout (ms) and the largest response body accepted (bytes)
 * @returns the outcome
 * @example await httpPost('http://127.0.0.1:8091/Dummy', headers, body, { timeoutMs: 12_000, maxBytes: 1 << 24 })
 */
export function httpPost(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  limits: { readonly timeoutMs: number; readonly maxBytes: number },
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    let connected = false;
    const payload = Buffer.from(body, 'utf8');
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(payload.length) }, agent: false });
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
    }, limits.timeoutMs);
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        connected = true;
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (!connected && ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNRESET'].includes(code))
        finish({ kind: 'refused', detail: code });
      else if (connected && (code === 'ECONNRESET' || error.message === 'socket hang up')) finish({ kind: 'disconnected', detail: error.message });
      else finish({ kind: 'other', detail: error.message });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) finish({ kind: 'too-large' });
        else chunks.push(chunk);
      });
      res.on('end', () => {
        finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) });
      });
      res.on('error', (error) => {
        finish({ kind: 'disconnected', detail: error.message });
      });
    });
    req.end(payload);
  });
}
