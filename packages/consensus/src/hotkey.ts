import type { Hotkey } from '@subnet/core';
import { hotkeySchema } from '@subnet/core';
import { z } from 'zod';

import { createMemo } from './memo.js';

/** '' for a valid hotkey, else the first issue's message. */
const verdicts = createMemo<string>(4096);

function check(value: string): string {
  const result = hotkeySchema.safeParse(value);
  return result.success ? '' : (result.error.issues[0]?.message ?? 'invalid SS58');
}

/**
 * `@subnet/core`'s hotkeySchema behind a bounded memo: a validator sees the same few hundred hotkeys in
 * every group, and the SS58 checksum (blake2b-512) would otherwise dominate the cost of a group.
 */
export const memoHotkeySchema = z
  .string()
  .superRefine((value, ctx) => {
    const message = verdicts.get(value, check);
    if (message !== '') ctx.addIssue({ code: 'custom', message });
  })
  .transform((value) => value as Hotkey);

/** Whether `value` passes {@link memoHotkeySchema} (the same memoised check, without zod). */
export function isValidHotkey(value: string): boolean {
  return verdicts.get(value, check) === '';
}
