import { describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { totalTimeoutSentence } from '../validator-http.js';

import { captureIo } from './capture-io.js';

/**
 * docs/spec.md G.46 (b): a run stopped by `--total-timeout` names the option's value and its most, as a refusal by
 * `--timeout` or `--max-bundle-bytes` does (`hostile-validator.test.ts` runs it against a real validator that drips).
 */
describe('decision (docs/spec.md G.46 (b)): the --total-timeout sentence names its value and its most', () => {
  it('below the most: how far it can be raised; at the most: that it is the most', () => {
    expect(totalTimeoutSentence(1200)).toBe('the run passed its --total-timeout of 1200 ms: raise it (at most 604800000) to wait longer');
    expect(totalTimeoutSentence(604_799_999)).toBe('the run passed its --total-timeout of 604799999 ms: raise it (at most 604800000) to wait longer');
    expect(totalTimeoutSentence(604_800_000)).toBe('the run passed its --total-timeout of 604800000 ms, the most it can be');
  });

  it('the most named is the most fetch takes: 604800000 is taken, one more refused', async () => {
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', 'http://127.0.0.1:1', '--from', '1', '--to', '1', '--out', 'x', '--total-timeout', '604800001'], t)).toBe(2);
    expect(t.err()).toContain('--total-timeout must be an integer in [1, 604800000], got "604800001"');
  });
});
