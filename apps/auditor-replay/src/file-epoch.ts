import { basename } from 'node:path';

import { SubnetError } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';
import { AUDITOR_ERROR_CODES } from './errors.js';

/** The names `fetch` saves an epoch's answer under: `epoch-<n>.json`, or `epoch-<n>.<sha256 of the bytes>.json` beside it. */
const FETCH_NAME = /^epoch-(0|[1-9][0-9]{0,14})(?:\.[0-9a-f]{64})?\.json$/;

/**
 * The epoch a file's name gives it when it is a name `fetch` saves under (`epoch-7.json`, `epoch-7.<sha256>.json`),
 * else undefined (`latest.json`, `a.json`: names that claim no epoch).
 *
 * @param file - the path
 * @returns the epoch of the name, or undefined
 * @example epochOfFileName('bundles/epoch-7.json') // 7
 */
export function epochOfFileName(file: string): number | undefined {
  const found = FETCH_NAME.exec(basename(file));
  return found === null ? undefined : Number(found[1]);
}

/**
 * Fails a bundle whose file is named for another epoch (docs/spec.md G.15): `epoch-3.json` holding the bundle of
 * epoch 5. The name is the claim a folder makes about what it holds (`fetch` names each file by the epoch it asked
 * for and refuses an answer of another epoch), so a copy of one epoch's bundle under the names of others would
 * otherwise pass as a folder of honest epochs, each of its files `ok`, while the epochs it stands in for are never
 * checked. Such a bundle becomes `invalid` with `AUDITOR_WRONG_EPOCH` at `bundle.epoch` (exit 2); its checks and
 * mismatches are kept. Other names are not read as a claim, and an audit already invalid is left as it is.
 *
 * @param audit - the bundle's audit
 * @returns the audit, or its invalid copy naming both epochs
 * @example fileEpoch(audit).error?.code // 'AUDITOR_WRONG_EPOCH' for epoch 5's bundle in epoch-3.json
 */
export function fileEpoch(audit: BundleAudit): BundleAudit {
  const named = epochOfFileName(audit.source);
  if (named === undefined || audit.epoch === null || audit.epoch === named || audit.status === 'invalid') return audit;
  const error = new SubnetError(
    AUDITOR_ERROR_CODES.wrongEpoch,
    `the file's name says epoch ${named}, but it holds the bundle of epoch ${audit.epoch} (a file named epoch-<n>.json holds epoch n's bundle, as fetch saves it)`,
    { context: { path: 'bundle.epoch', value: audit.epoch, expected: named } },
  );
  return { ...audit, status: 'invalid', error: { code: error.code, message: error.message, path: 'bundle.epoch' } };
}
