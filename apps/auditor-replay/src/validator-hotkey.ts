import { compareCodePoints, SubnetError } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';
import { AUDITOR_ERROR_CODES } from './errors.js';

/** The bundles of one validator hotkey in a report, by outcome (`summary.validators` of the `--json` report). */
export interface ValidatorCount {
  readonly validator_hotkey: string;
  readonly bundles: number;
  readonly ok: number;
  readonly mismatched: number;
  readonly invalid: number;
}

/**
 * Fails a bundle of another validator than the one audited (`verify --validator-hotkey`). A signature proves
 * which hotkey signed, not that it is the validator audited: a validator can serve another's honestly signed
 * bundles, which pass every other check. Such a bundle becomes `invalid` with `AUDITOR_WRONG_VALIDATOR` at
 * `bundle.validator_hotkey` (exit 2, as any bundle that is not the audited validator's to judge); its checks and
 * mismatches are kept. A bundle that names no hotkey (it did not parse) is left as it is: it is invalid already.
 * One string compare per bundle.
 *
 * @param audit - the bundle's audit
 * @param expected - the validator hotkey audited
 * @returns the audit, or its invalid copy naming both hotkeys
 * @example otherValidator(audit, '5Grwva…').error?.code // 'AUDITOR_WRONG_VALIDATOR' for a bundle of //Eve
 */
export function otherValidator(audit: BundleAudit, expected: string): BundleAudit {
  const named = audit.validator_hotkey;
  if (named === null || named === expected) return audit;
  const how = audit.checks.signature === true ? 'is signed by' : 'names';
  const error = new SubnetError(AUDITOR_ERROR_CODES.wrongValidator, `the bundle ${how} validator ${named}, not by ${expected} (--validator-hotkey)`, {
    context: { path: 'bundle.validator_hotkey', value: named, expected },
  });
  return { ...audit, status: 'invalid', error: { code: error.code, message: error.message, path: 'bundle.validator_hotkey' } };
}

/**
 * Counts the bundles of each validator hotkey they name (a bundle that names none is not counted), ordered by hotkey.
 *
 * @param audits - the audits of a run
 * @returns one count per hotkey
 * @example validatorCounts(report.bundles)[0]?.ok
 */
export function validatorCounts(audits: readonly BundleAudit[]): readonly ValidatorCount[] {
  const counts = new Map<string, { validator_hotkey: string; bundles: number; ok: number; mismatched: number; invalid: number }>();
  for (const a of audits) {
    if (a.validator_hotkey === null) continue;
    const c = counts.get(a.validator_hotkey) ?? { validator_hotkey: a.validator_hotkey, bundles: 0, ok: 0, mismatched: 0, invalid: 0 };
    c.bundles += 1;
    if (a.status === 'ok') c.ok += 1;
    else if (a.status === 'mismatch') c.mismatched += 1;
    else c.invalid += 1;
    counts.set(a.validator_hotkey, c);
  }
  return Object.freeze([...counts.values()].sort((x, y) => compareCodePoints(x.validator_hotkey, y.validator_hotkey)).map((c) => Object.freeze(c)));
}

/**
 * Short forms of hotkeys for a table column: 6 leading and 4 trailing characters (`5Grwva…utQY`), one more of
 * each for hotkeys whose short forms would read the same, until every hotkey reads differently (whole at most).
 * Only a label: the report prints each full hotkey beside it, and `--validator-hotkey` compares full hotkeys.
 *
 * @param hotkeys - the hotkeys (repeats allowed)
 * @returns hotkey -> its short form
 * @example shortHotkeys(['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY']).get('5Grwva…') // '5Grwva…utQY'
 */
export function shortHotkeys(hotkeys: Iterable<string>): ReadonlyMap<string, string> {
  const extra = new Map<string, number>();
  for (const h of hotkeys) extra.set(h, 0);
  const form = (h: string): string => {
    const n = extra.get(h) ?? 0;
    return 6 + n + 1 + 4 + n >= h.length ? h : `${h.slice(0, 6 + n)}…${h.slice(-(4 + n))}`;
  };
  for (;;) {
    const byForm = new Map<string, string[]>();
    for (const h of extra.keys()) byForm.set(form(h), [...(byForm.get(form(h)) ?? []), h]);
    const clashes = [...byForm.values()].filter((list) => list.length > 1);
    if (clashes.length === 0) break;
    // Distinct hotkeys end whole at the latest, where they differ.
    for (const list of clashes) for (const h of list) extra.set(h, (extra.get(h) ?? 0) + 1);
  }
  return new Map([...extra.keys()].map((h) => [h, form(h)]));
}
