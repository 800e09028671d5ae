import { Agent, request } from 'node:http';

/** Load generator for the ingest benchmark (not a test): keep-alive HTTP clients against a validator child process (`startChildValidator`). */

export interface LoadResult {
  readonly seconds: number;
  readonly acknowledged: string[];
  readonly rejected: number;
  readonly errors: number;
  readonly perSecond: number[];
}

/** POSTs bounty records from `concurrency` keep-alive connections for `seconds`. */
export async function runLoad(url: string, hotkeys: readonly string[], token: string, seconds: number, concurrency = 64): Promise<LoadResult> {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const acknowledged: string[] = [];
  const perSecond: number[] = [];
  let rejected = 0;
  let errors = 0;
  let next = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const post = (id: string, hotkey: string): Promise<number> =>
    new Promise((resolve) => {
      const body = JSON.stringify({ record_id: id, miner_hotkey: hotkey, valid_issues: next % 40, invalid_issues: 0, starred_repos: next % 3 });
      const req = request(
        {
          hostname,
          port,
          path: '/v1/bounty-records',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            resolve(res.statusCode ?? 0);
          });
        },
      );
      req.on('error', () => {
        resolve(-1);
      });
      req.end(body);
    });
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const id = `load-${next}`;
      const hotkey = hotkeys[next % hotkeys.length] ?? '';
      next++;
      const status = await post(id, hotkey);
      if (status >= 200 && status < 300) {
        acknowledged.push(id);
        const second = Math.floor((performance.now() - start) / 1000);
        perSecond[second] = (perSecond[second] ?? 0) + 1;
      } else if (status === -1) errors++;
      else rejected++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  agent.destroy();
  return {
    seconds: (performance.now() - start) / 1000,
    acknowledged,
    rejected,
    errors,
    perSecond: Array.from({ length: perSecond.length }, (_, i) => perSecond[i] ?? 0),
  };
}
