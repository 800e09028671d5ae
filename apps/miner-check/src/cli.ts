#!/usr/bin/env node
import { runMinerCheck } from './program.js';

process.exitCode = await runMinerCheck(process.argv.slice(2));
