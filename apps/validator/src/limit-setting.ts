import { ENV_PREFIX } from './config.js';

/**
 * The setting behind a limit, in the words a refusal ends with (docs/spec.md G.24): the configuration key, its
 * current value, the environment variable that sets it, and the largest value it takes, so the operator who reads
 * the answer (or its access log line) knows what to raise and how far. Every part is public: the limit is already
 * what the answer reports, and the key and variable are documented.
 *
 * @param key - the dotted configuration key, `server.input_limits.max_list_length`
 * @param value - the value in force
 * @param largest - the largest value the key takes, when it has one
 * @returns `server.input_limits.max_list_length = 3 (environment variable SUBNET_VALIDATOR_SERVER__INPUT_LIMITS__MAX_LIST_LENGTH, at most 100000)`
 * @example `${refusal}; the limit is ${limitSetting('server.body_limit_bytes', 65536, 67108864)}`
 */
export function limitSetting(key: string, value: number, largest?: number): string {
  const variable = `${ENV_PREFIX}${key.split('.').join('__').toUpperCase()}`;
  return `${key} = ${value} (environment variable ${variable}${largest === undefined ? '' : `, at most ${largest}`})`;
}
