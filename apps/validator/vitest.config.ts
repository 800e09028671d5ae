import { packageTestConfig } from '@subnet/vitest-config';

// Two files at once: most of this suite waits on child processes, a devnet's blocks and timers, and with one file at a
// time (vitest's default on two cores) it ran 16 minutes, alone for the last 11. Each file keeps its own ports, temp
// folders and PostgreSQL schema (helpers.ts), so files running side by side share nothing.
export default packageTestConfig({ testTimeout: 30_000, maxWorkers: 2 });
