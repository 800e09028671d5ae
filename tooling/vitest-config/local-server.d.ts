import type { RequestListener, Server, ServerResponse } from 'node:http';

/** A port on 127.0.0.1 where nothing listens, out of the range the system hands out: a connection there is refused. */
export declare const REFUSED_PORT: number;
/** A real HTTP server on 127.0.0.1 (a free port): the server, its base URL and a close that ends every connection first. */
export declare function listenLocal(handler: RequestListener): Promise<{ server: Server; url: string; close: () => Promise<void> }>;
/** Writes `chunk` (default 64 KiB) to a response every `everyMs` (default 10 ms) until the client goes away. */
export declare function writeEndlessly(response: ServerResponse, chunk?: string, everyMs?: number): void;
