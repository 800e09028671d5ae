// Loaded with `node --import`: logs every module URL the process resolves to the file named by MODULE_LOG.
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { log: process.env.MODULE_LOG } });
