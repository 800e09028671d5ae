export { MINER_CHECK_ERROR_CODES } from './errors.js';
export type { MinerCheckErrorCode } from './errors.js';
