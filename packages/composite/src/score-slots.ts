/**
 * Internal: the slots of the scratch vector (`CompiledPlan.out`) one evaluation writes, so that scoring
 * a parsed or raw record allocates nothing and the explained result reads every number from one place.
 */
export const SCORE = 0;
export const SUCCESS = 1;
export const COST = 2;
export const LATENCY = 3;
export const RELIABILITY = 4;
export const COMPLETION = 5;
export const GATE = 6;
export const STEPS = 7;
export const RETRIES = 8;
export const UNPLANNED = 9;
export const TIMEOUTS = 10;
export const HARD = 11;
/** 1 when the counters were derived from attempts, 0 when pre-counted. */
export const FROM_ATTEMPTS = 12;
/** How many attempts the record listed. */
export const ATTEMPTS = 13;
export const QUALITY = 14;
export const ACTUAL_TAO = 15;
export const ACTUAL_SECONDS = 16;
/** Length of the scratch vector. */
export const SLOTS = 17;

/** Status codes stored per node in `CompiledPlan.lastStatus`. */
export const STATUS_NONE = 0;
export const STATUS_SUCCESS = 1;
export const STATUS_FAILURE = 2;
export const STATUS_TIMEOUT = 3;
