/** Pool (`SubtensorTransactionExtension`) custom error codes (chain README 2.3). */
export const CUSTOM_ERROR = Object.freeze({
  StakeAmountTooLow: 1,
  SubnetNotExists: 3,
  RateLimitExceeded: 6,
  InvalidRevealRound: 15,
  CommitNotFound: 16,
  CommitBlockNotInRevealRange: 17,
  InputLengthsUnequal: 18,
  UidNotFound: 19,
  BadRequest: 255,
});
