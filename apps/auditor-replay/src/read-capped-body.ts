/**
 * Reads a response body up to `maxBytes`: the bytes, or undefined as soon as more arrive (the body is then
 * cancelled, so an endless or huge answer from an untrusted validator is never buffered whole).
 *
 * @param response - a fetch response
 * @param maxBytes - the most bytes accepted
 * @returns the body's bytes, or undefined when it is larger than `maxBytes`
 * @example const bytes = await readCappedBody(response, 64 * 1024 * 1024)
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
