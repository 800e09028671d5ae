#!/usr/bin/env node
import { runMinerCheck } from './program.js';

// A reader that stops early (`| head`) closes the pipe: end as a Unix tool killed by SIGPIPE would (141),
// quietly, instead of printing an EPIPE stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

process.exitCode = await runMinerCheck(process.argv.slice(2));
