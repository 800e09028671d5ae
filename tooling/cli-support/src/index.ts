export { isCommanderError } from './commander-error.js';
export { documentKind, wrongKindSentence } from './document-kind.js';
export type { DocumentKind, DocumentKindId } from './document-kind.js';
export { missingKeyHint } from './missing-key-hint.js';
export { overLimitHint } from './over-limit-hint.js';
export type { LimitOption } from './over-limit-hint.js';
export { editDistance, nearestKey } from './near-key.js';
export { unknownOptionFirst } from './unknown-option-first.js';
export { usageCause } from './usage-cause.js';
