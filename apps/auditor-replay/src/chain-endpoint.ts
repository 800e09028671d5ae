import { resolveEndpoints } from '@subnet/chain/networks';
import { describeValue, isSubnetError, redactUrl, SubnetError } from '@subnet/core';

import { AUDITOR_ERROR_CODES } from './errors.js';

/**
 * Checks a `--chain` value before any connection: a `ws://` or `wss://` URL, or a network name the chain package
 * knows (`finney`, `test`, `local`; `resolveEndpoints` of `@subnet/chain`). Anything else (an `http://` URL, a
 * host without a scheme) is the command line's mistake, not the chain's: refused at once, naming the option and
 * the value, with the `ws(s)://` URL to give instead when the value is an `http(s)://` one.
 *
 * @param value - the `--chain` value
 * @throws SubnetError `AUDITOR_INVALID_OPTION` (context `{ option: '--chain' }`; the value shown redacted)
 * @example checkChainEndpoint('http://127.0.0.1:9944') // throws: ... (for http://127.0.0.1:9944 give ws://127.0.0.1:9944)
 */
export function checkChainEndpoint(value: string): void {
  try {
    resolveEndpoints(value);
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    const shown = redactUrl(value);
    const http = /^(https?):\/\//i.exec(shown);
    const instead = http === null ? '' : ` (for ${shown} give ${http[1]?.toLowerCase() === 'https' ? 'wss' : 'ws'}://${shown.slice(http[0].length)})`;
    throw new SubnetError(
      AUDITOR_ERROR_CODES.invalidOption,
      `--chain ${describeValue(shown)} is not allowed: the chain endpoint must be a ws:// or wss:// URL, or a network name (finney, test, local)${instead}`,
      { context: { option: '--chain' }, cause: error },
    );
  }
}
