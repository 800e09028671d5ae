/**
 * The longest delay Node.js timers take (2^31 - 1 ms). A longer one fires after 1 ms (with a `TimeoutOverflowWarning`):
 * a block time above it would produce a block every millisecond, a delayed extrinsic would not be delayed.
 */
export const MAX_TIMER_MS = 2_147_483_647;
