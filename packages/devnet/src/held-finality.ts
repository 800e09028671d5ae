import type { Conn } from './rpc-context.js';

/** Releases the `finalized` updates held for a block hash on a connection. */
export function releaseHeld(conn: Conn, hash: string): void {
  const held = conn.heldFinal.get(hash);
  if (held === undefined) return;
  conn.heldFinal.delete(hash);
  for (const r of held.release) r();
}

/**
 * Notes that a connection read the block (`chain_getBlock`) or its storage (`state_getStorage*`,
 * `state_queryStorageAt`) at a held hash; once both were read, the held `finalized` updates go out 25 ms later.
 *
 * @param conn - the connection
 * @param method - the method just answered
 * @param params - its params
 * @example
 * noteRead(conn, 'chain_getBlock', [hash]);
 */
export function noteRead(conn: Conn, method: string, params: readonly unknown[]): void {
  if (conn.heldFinal.size === 0) return;
  let at: unknown;
  let kind: 'block' | 'storage' | null = null;
  if (method === 'chain_getBlock') {
    at = params[0];
    kind = 'block';
  } else if (method === 'state_getStorage' || method === 'state_getStorageAt' || method === 'state_queryStorageAt') {
    at = params[1];
    kind = 'storage';
  }
  if (kind === null || typeof at !== 'string') return;
  const hash = at.toLowerCase();
  const held = conn.heldFinal.get(hash);
  if (held === undefined) return;
  held[kind] = true;
  if (held.block && held.storage) {
    setTimeout(() => {
      releaseHeld(conn, hash);
    }, 25);
  }
}
