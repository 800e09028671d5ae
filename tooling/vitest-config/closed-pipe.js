// Runs a command one of whose output streams is a pipe the reader has already closed, as `cli | head -0` (stdout)
// or a log collector that died (stderr) leaves it: the command's first write there fails with EPIPE. Resolves with
// its exit code, signal and what it wrote to the other stream.
import { spawn } from 'node:child_process';

function runWithClosed(closed, command, args, options) {
  const other = closed === 'stdout' ? 'stderr' : 'stdout';
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child[closed].destroy();
    let written = '';
    child[other].setEncoding('utf8');
    child[other].on('data', (chunk) => {
      written += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, [other]: written });
    });
  });
}

export function runWithClosedStdout(command, args, options = {}) {
  return runWithClosed('stdout', command, args, options);
}

export function runWithClosedStderr(command, args, options = {}) {
  return runWithClosed('stderr', command, args, options);
}
