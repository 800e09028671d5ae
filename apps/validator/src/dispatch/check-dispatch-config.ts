import type { EpochConfig } from '@subnet/bundle';
import { SubnetError } from '@subnet/core';

import { VALIDATOR_ERROR_CODES } from '../errors.js';
import type { DispatchConfig } from './dispatch-config.js';

function invalid(path: string, value: unknown, message: string): never {
  throw new SubnetError(VALIDATOR_ERROR_CODES.invalidConfig, `invalid configuration: ${message} at ${path}`, { context: { path, value } });
}

/**
 * Checks the `dispatch` section against the scoring configuration: each dispatched challenge is a configured
 * challenge of kind `sssa` or `workflow`, dispatched once; an `sssa` group size equals the draw's primaries +
 * auditors; a `workflow` challenge needs the executor webhook.
 *
 * @param dispatch - the parsed `dispatch` section (or undefined: nothing to check)
 * @param scoring - the parsed scoring configuration
 * @throws SubnetError `VALIDATOR_INVALID_CONFIG` naming the path (`dispatch.challenges[0].group_size`) and value
 * @example checkDispatchConfig(config.dispatch, config.scoring)
 */
export function checkDispatchConfig(dispatch: DispatchConfig | undefined, scoring: EpochConfig): void {
  if (dispatch === undefined) return;
  const seen = new Set<string>();
  dispatch.challenges.forEach((c, i) => {
    const at = `dispatch.challenges[${i}]`;
    if (seen.has(c.challenge_id)) invalid(`${at}.challenge_id`, c.challenge_id, 'a challenge is dispatched twice');
    seen.add(c.challenge_id);
    const challenge = scoring.challenges.find((s) => s.id === c.challenge_id);
    if (challenge === undefined) invalid(`${at}.challenge_id`, c.challenge_id, 'no scoring challenge has this id');
    if (challenge.kind === 'sssa') {
      const size = challenge.assignment.primaries + challenge.assignment.auditors;
      if (c.group_size !== undefined && c.group_size !== size)
        invalid(`${at}.group_size`, c.group_size, `an sssa group is the draw's primaries + auditors (${size})`);
    } else if (challenge.kind === 'workflow') {
      if (dispatch.executor_webhook === undefined)
        invalid('dispatch.executor_webhook', undefined, 'a dispatched workflow challenge sends its plans to the executor webhook');
    } else {
      invalid(`${at}.challenge_id`, c.challenge_id, `a ${challenge.kind} challenge is not dispatched to axons (only sssa and workflow are)`);
    }
  });
}
