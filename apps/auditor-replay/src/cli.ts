import { runCli } from './cli-program.js';

// A reader that stops early (`| head`) closes the pipe: end as a Unix tool killed by SIGPIPE would (141),
// quietly, instead of printing an EPIPE stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
});

// Nobody reads standard error any more (a log collector died, `2> >(head -0)`): what would go there is lost either
// way, so the run goes on and ends with its own exit code (2 for a usage error, say), not 1 for the failed write.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await runCli(process.argv.slice(2), process);
