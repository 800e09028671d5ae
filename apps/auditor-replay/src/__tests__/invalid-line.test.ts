import { SubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { invalidAudit } from '../audit-bundle.js';
import { buildReport, formatReport } from '../audit-report.js';

describe('the INVALID line of the text report', () => {
  it('names the code once when the message is a SubnetError message, which starts with it', () => {
    const error = new SubnetError('AUDITOR_INVALID_BUNDLE', 'invalid signed: expected an object at signed.bundle');
    expect(error.message.startsWith('[AUDITOR_INVALID_BUNDLE] ')).toBe(true);
    const text = formatReport(buildReport([invalidAudit('manifest.json', { code: error.code, message: error.message, path: 'signed.bundle' })]));
    const line = text.split('\n').find((l) => l.startsWith('INVALID '));
    expect(line).toBe(`INVALID manifest.json: ${error.message}`);
    expect(line?.split('[AUDITOR_INVALID_BUNDLE]').length).toBe(2);
  });

  it('puts the code in front of a message that does not carry it', () => {
    const text = formatReport(buildReport([invalidAudit('x.json', { code: 'AUDITOR_UNREADABLE', message: 'cannot read', path: null })]));
    expect(text.split('\n')).toContain('INVALID x.json: [AUDITOR_UNREADABLE] cannot read');
  });
});
