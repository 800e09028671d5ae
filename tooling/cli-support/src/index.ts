export { isCommanderError } from './commander-error.js';
export { unknownOptionFirst } from './unknown-option-first.js';
export { usageCause } from './usage-cause.js';
