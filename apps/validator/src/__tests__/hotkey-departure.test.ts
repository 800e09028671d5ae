import { describe, expect, it } from 'vitest';

import type { ChainNeuron } from '../chain-port.js';
import { hotkeyDeparture } from '../hotkey-departure.js';

/** docs/spec.md G.21: where this validator's uid went when a metagraph read no longer lists its hotkey. */
const OLD = '5OldValidatorHotkey';
const NEW = '5NewHotkey';
const self: ChainNeuron = { uid: 3, hotkey: OLD, stake: 10n, validatorPermit: true, coldkey: '5Cold', registeredAt: 120n };
const view = (holder: Partial<ChainNeuron> | null, block = 900n) => ({
  block,
  neurons: [
    { uid: 0, hotkey: '5Owner', stake: 0n, validatorPermit: true },
    ...(holder === null ? [] : [{ uid: 3, hotkey: NEW, stake: 10n, validatorPermit: true, ...holder }]),
  ],
});

describe('hotkeyDeparture', () => {
  it('the same registration block on the uid is a hotkey swap: the new hotkey, the block, and what to do', () => {
    const d = hotkeyDeparture(self, view({ registeredAt: 120n, coldkey: '5Cold' }), 7);
    expect(d.code).toBe('HOTKEY_SWAPPED');
    expect(d.cause).toBe(`a hotkey swap moved uid 3 to ${NEW} (registered since block 120)`);
    expect(d.message).toBe(
      `hotkey ${OLD} no longer holds uid 3 on netuid 7: a hotkey swap moved uid 3 to ${NEW} (registered since block 120). ` +
        `The chain refuses this validator's weights (HotKeyNotRegisteredInSubNet) and /readyz answers 503: restart the validator with the new ` +
        `hotkey's wallet (wallet.hotkey); a timelocked commit still waiting for its reveal is lost (the chain reveals it as its signer)`,
    );
    expect(d.numbers).toEqual({ hotkey: OLD, netuid: 7, uid: 3, block: '900', newHotkey: NEW, registeredAt: '120', coldkey: '5Cold' });
  });

  it('another registration block is a deregistration, even under the same coldkey', () => {
    const d = hotkeyDeparture(self, view({ registeredAt: 850n, coldkey: '5Cold' }), 7);
    expect(d.code).toBe('HOTKEY_DEREGISTERED');
    expect(d.message).toMatch(
      new RegExp(`^hotkey ${OLD} was deregistered from netuid 7: uid 3 was given to ${NEW} by a registration in block 850\\. .*register it again`),
    );
  });

  it('without registration blocks, the owner decides: the same coldkey is a swap, another one a registration', () => {
    const { registeredAt: _dropped, ...noBlock } = self;
    expect(hotkeyDeparture(noBlock, view({ coldkey: '5Cold' }), 7)).toMatchObject({
      code: 'HOTKEY_SWAPPED',
      cause: `a hotkey swap moved uid 3 to ${NEW} (owned by the same coldkey 5Cold)`,
    });
    expect(hotkeyDeparture(noBlock, view({ coldkey: '5Other' }), 7)).toMatchObject({
      code: 'HOTKEY_DEREGISTERED',
      cause: `uid 3 was given to ${NEW} by a registration`,
    });
    // Nothing to compare: not called a swap.
    expect(hotkeyDeparture({ uid: 3, hotkey: OLD, stake: 1n, validatorPermit: true }, view({}), 7).code).toBe('HOTKEY_DEREGISTERED');
  });

  it('a uid the subnet no longer has is a deregistration that says so', () => {
    const d = hotkeyDeparture(self, view(null), 7);
    expect(d).toMatchObject({ code: 'HOTKEY_DEREGISTERED', cause: 'uid 3 is no longer on the subnet (1 neurons at block 900)', numbers: { neurons: 1 } });
  });
});
