export { CORE_ERROR_CODES } from './error-codes.js';
export type { CoreErrorCode } from './error-codes.js';
export { describeValue, isSubnetError, SubnetError } from './errors.js';
export type { SubnetErrorContext, SubnetErrorContextByCode, SubnetErrorOptions } from './errors.js';
export {
  CANONICAL_JSON_MAX_DEPTH,
  CANONICAL_JSON_TOO_DEEP,
  CANONICAL_JSON_UNSUPPORTED,
  canonicalJson,
  compareCodePoints,
  digest,
  isCanonicalJsonOf,
  sameCanonicalJson,
  sha256Hex,
} from './canonical-json.js';
export { canonicalJsonBytes } from './canonical-json-bytes.js';
export type { CanonicalJsonBytes } from './canonical-json-bytes.js';
export { scanCanonicalJson } from './canonical-json-text.js';
export type { CanonicalJsonTextShape } from './canonical-json-text.js';
export { findStringifiedNumber, stringifiedNumberMessage } from './find-stringified-number.js';
export type { StringifiedNumber } from './find-stringified-number.js';
export { formatPath, parseInput } from './parse.js';
export { plainJsonKey } from './plain-json-key.js';
export type { InputErrorContext, InputIssue } from './parse.js';
export { redactUrl } from './redact-url.js';
export { describeSystemError } from './system-error.js';
export { BITTENSOR_SS58_PREFIX, decodeSs58, encodeSs58, ss58Spelling } from './ss58.js';
export type { DecodedSs58, Ss58Spelling } from './ss58.js';
export { blockNumberSchema, hotkeySchema, isHotkey, nonNegativeFiniteSchema, u16WeightSchema, U64_MAX, uidSchema, unitIntervalSchema } from './schemas.js';
export type { BlockNumber, Hotkey, U16Weight, Uid, UnitInterval } from './schemas.js';
export { asciiLower, asciiTrim, asciiUpper, assertWellFormed, CORE_MALFORMED_TEXT, findLoneSurrogate } from './text.js';
export { checkInputShape, CORE_INPUT_NOT_JSON, CORE_INPUT_TOO_DEEP, CORE_INPUT_TOO_LARGE, DEFAULT_INPUT_LIMITS } from './input-limits.js';
export type { InputLimits, InputShapeErrorContext } from './input-limits.js';
export { runtimeExemptsSubnetOwner, SUBTENSOR_OWNER_EXEMPTION_SPEC_VERSION } from './subtensor-owner-exemption.js';
export type { SubtensorRuntimeFacts } from './subtensor-owner-exemption.js';
