import { buildBundle, signBundle } from '@subnet/bundle';
import type { SubmissionRecord } from '@subnet/bundle';
import { beforeAll, describe, expect, it } from 'vitest';

import { auditBundle, buildReport, formatReport, renderHtmlReport } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import { epochInput, keys } from './fixtures.js';
import type { Keys } from './fixtures.js';

let k: Keys;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
});

function signed(epoch: number, submission: SubmissionRecord): unknown {
  return JSON.parse(JSON.stringify(signBundle(buildBundle({ ...epochInput(k, { miners: 4, epoch }), submission }), k.validator)));
}

const missed: SubmissionRecord = {
  status: 'missed',
  block: null,
  extrinsic_hash: null,
  call: null,
  error: { code: 'VALIDATOR_EPOCH_MISSED', message: 'epoch 3 was closed while the head was in epoch 5: too late to submit' },
};
const notLanded: SubmissionRecord = {
  status: 'not_landed',
  block: null,
  extrinsic_hash: null,
  call: null,
  error: { code: 'VALIDATOR_SUBMISSION_NOT_LANDED', message: 'the interrupted submission is in no block up to 180' },
};
const submitted: SubmissionRecord = {
  status: 'submitted',
  block: '120',
  extrinsic_hash: `0x${'ab'.repeat(32)}`,
  call: 'SubtensorModule.set_weights',
  error: null,
};

describe('submission statuses missed and not_landed (issue 17, items 2-3)', () => {
  it('a missed and a not-landed bundle verify and recompute (ok), say why nothing is on chain, and get no chain check', () => {
    const audits = [auditBundle(signed(3, missed), 'epoch-3.json', verify).audit, auditBundle(signed(4, notLanded), 'epoch-4.json', verify).audit];
    for (const a of audits) {
      expect(a.status).toBe('ok');
      expect(a.submission_block).toBeNull();
    }
    expect(audits.map((a) => a.submission)).toEqual([
      { status: 'missed', code: 'VALIDATOR_EPOCH_MISSED', call: null },
      { status: 'not_landed', code: 'VALIDATOR_SUBMISSION_NOT_LANDED', call: null },
    ]);
    const a5 = auditBundle(signed(5, submitted), 'epoch-5.json', verify).audit;
    const text = formatReport(buildReport([...audits, a5]));
    const header = text.split('\n').find((l) => l.startsWith('epoch'))!;
    expect(header.split(/\s+/).slice(0, 3)).toEqual(['epoch', 'status', 'submission']);
    const rows = text.split('\n').filter((l) => /^[345]\s+ok\s/.test(l));
    expect(rows.map((r) => r.split(/\s+/).slice(0, 3))).toEqual([
      ['3', 'ok', 'missed'],
      ['4', 'ok', 'not_landed'],
      ['5', 'ok', 'submitted@120'],
    ]);
    const html = renderHtmlReport(buildReport([...audits, a5]));
    expect(html).toContain('missed: closed too late to submit, nothing sent [VALIDATOR_EPOCH_MISSED]');
    expect(html).toContain('not landed: an interrupted submission the chain never included, not resubmitted [VALIDATOR_SUBMISSION_NOT_LANDED]');
    expect(html).toContain('submitted in block 120');
  });
});
