import { describe, expect, it } from 'vitest';

import { stakeWeight } from '../stake-weight.js';

const U64_MAX = 2n ** 64n - 1n;
const none = { alpha: 0n, rootTao: 0n, parents: [], children: [], taoWeight: 0n };

// Expected values are worked by hand from the chain's fixed-point arithmetic (stake_utils.rs): a proportion
// p becomes U96F32 bits floor(p * 2^32 / u64::MAX), a share is amount * bits / 2^32, truncated.
describe('stake weight = inherited alpha + inherited root TAO x TaoWeight (get_stake_weights_for_hotkey_on_subnet)', () => {
  it('own alpha only: the total is the alpha', () => {
    expect(stakeWeight({ ...none, alpha: 12_345n })).toMatchObject({ ownAlpha: 12_345n, alpha: 12_345n, tao: 0n, total: 12_345n });
  });

  it("a child key inherits its parent's alpha share, truncated as U96F32 does (half of 1000 is 499, not 500)", () => {
    // floor((2^63 - 1) * 2^32 / (2^64 - 1)) = 2147483647 bits; 1000 * 2147483647 / 2^32 = 499.99999976 -> 499
    const child = stakeWeight({ ...none, parents: [{ proportion: U64_MAX / 2n, alpha: 1000n, rootTao: 0n }] });
    expect([child.ownAlpha, child.alpha, child.total]).toEqual([0n, 499n, 499n]);
    const all = stakeWeight({ ...none, parents: [{ proportion: U64_MAX, alpha: 1000n, rootTao: 0n }] });
    expect(all.total).toBe(1000n);
  });

  it('a parent keeps its alpha minus what its children take', () => {
    const parent = stakeWeight({ ...none, alpha: 1000n, children: [{ proportion: U64_MAX / 2n }] });
    // 1000 * 2^32 - 1000 * 2147483647 = 1000 * 2147483649 bits -> 500.0000002 -> 500
    expect(parent.alpha).toBe(500n);
  });

  it("root TAO counts with TaoWeight: finney's 971718665099567868 weights 1e12 rao of root TAO as 52676974330", () => {
    // TaoWeight bits = floor(971718665099567868 * 2^32 / (2^64 - 1)) = 226245882; 1e12 * 226245882 / 2^32 = 52676974330.1
    const w = stakeWeight({ ...none, rootTao: 10n ** 12n, taoWeight: 971_718_665_099_567_868n });
    expect([w.alpha, w.tao, w.total]).toEqual([0n, 10n ** 12n, 52_676_974_330n]);
  });

  it("a parent's root TAO is inherited through the child key too, then weighted", () => {
    // 1e14 root TAO, full proportion; TaoWeight u64::MAX / 10 = 429496729 bits -> 1e14 * 429496729 / 2^32 = 9999999986030.4
    const w = stakeWeight({ ...none, parents: [{ proportion: U64_MAX, alpha: 0n, rootTao: 10n ** 14n }], taoWeight: U64_MAX / 10n });
    expect([w.tao, w.total]).toEqual([10n ** 14n, 9_999_999_986_030n]);
  });

  it('children never take more than the hotkey owns (saturating subtraction)', () => {
    const w = stakeWeight({ ...none, alpha: 10n, children: [{ proportion: U64_MAX }, { proportion: U64_MAX }] });
    expect(w.alpha).toBe(0n);
  });
});
