import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of a devnet that can freeze: sockets stay open, nothing passes either way. */
export interface FreezableProxy {
  readonly port: number;
  /** Stop forwarding bytes in both directions without closing anything (a hung node or a black-holed route). */
  freeze(): void;
  close(): Promise<void>;
}

/**
 * Starts the proxy (test helper).
 *
 * @param targetPort - the devnet's port
 * @returns the proxy
 */
export async function startFreezableProxy(targetPort: number): Promise<FreezableProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => {
      if (!frozen) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!frozen) client.write(d);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    freeze() {
      frozen = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
