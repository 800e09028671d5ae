/**
 * Whether a submission's call committed its weights instead of setting them (commit-reveal v2 `commit_weights`,
 * v4 `commit_timelocked_weights`, their mechanism and batch forms): the chain's `Weights` then hold them only
 * from the reveal on, epochs later, so the weights read after the submission block are the previous ones.
 *
 * @param call - the bundle's `submission.call`
 * @returns true for a commit
 * @example isCommitCall('SubtensorModule.commit_timelocked_weights') // true
 */
export function isCommitCall(call: string | null): boolean {
  return call !== null && /(^|\.)(batch_)?commit_/.test(call);
}
