/**
 * What {@link readBodyUpTo} read: the bytes, and whether the body had more (the rest was not read).
 */
export interface BodyPrefix {
  readonly bytes: Buffer;
  /** The body went on past `maxBytes`: `bytes` holds the first `maxBytes` and the stream was cancelled. */
  readonly more: boolean;
}

/**
 * Reads at most `maxBytes` of an HTTP answer's body and cancels the rest, so an answer that never ends, or
 * a huge one, costs at most `maxBytes` of memory and no more time than those bytes take to arrive. The peer
 * publisher and the HTTP task source read through it, the executor webhook's answer is dropped unread
 * ({@link discardBody}), and miners' axon answers are read by `@subnet/axon`'s dendrite under its own cap.
 *
 * @param response - a fetch `Response` whose body has not been read
 * @param maxBytes - the most bytes kept
 * @returns the first `maxBytes` bytes at most, and whether there were more
 * @example const { bytes, more } = await readBodyUpTo(await fetch(url), 65_536)
 */
export async function readBodyUpTo(response: Response, maxBytes: number): Promise<BodyPrefix> {
  if (response.body === null) return { bytes: Buffer.alloc(0), more: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), more: false };
    chunks.push(value);
    total += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), more: true };
}

/**
 * Drops an HTTP answer's body without reading it (the status says all that is needed), so a server that
 * answers with an endless body cannot hold the caller until its timeout.
 *
 * @param response - a fetch `Response`
 * @returns when the body is cancelled
 * @example await discardBody(await fetch(url, { method: 'POST', body }))
 */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
