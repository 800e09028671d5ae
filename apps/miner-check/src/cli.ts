#!/usr/bin/env node
import { endQuietlyOnClosedPipes } from '@subnet/cli-support';

import { runMinerCheck } from './program.js';

// A closed standard output ends the run quietly with 141; a closed standard error keeps the run's own exit code.
endQuietlyOnClosedPipes();

process.exitCode = await runMinerCheck(process.argv.slice(2));
