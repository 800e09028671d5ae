import { afterAll, describe, expect, it } from 'vitest';

import { useKeys, useService } from './helpers.js';

// Node prints a process warning on the operator's stderr (`(node:…) [FSTDEP022] DeprecationWarning: …`) and
// libraries emit each one once per process, so it is caught here from before the validator starts.
const warnings: string[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(`${warning.name}: ${(warning as Error & { code?: string }).code ?? ''} ${warning.message}`);
};
process.on('warning', onWarning);
afterAll(() => {
  process.off('warning', onWarning);
});

const k = useKeys();
const validator = useService(k);

describe('starting the validator', () => {
  it('prints no process warning (a deprecated option of fastify, an experimental API) on the operator’s stderr', async () => {
    expect((await fetch(`${validator.url}/healthz`)).status).toBe(200);
    expect(warnings).toEqual([]);
  });
});
