import { endQuietlyOnClosedPipes } from '@subnet/cli-support';

import { runCli } from './cli-program.js';

// A closed standard output ends the run quietly with 141; a closed standard error keeps the run's own exit code.
endQuietlyOnClosedPipes();

process.exitCode = await runCli(process.argv.slice(2), process);
