/** One miner's score from this validator in one challenge. */
export interface OwnScore {
  readonly miner_hotkey: string;
  readonly score: number;
}
