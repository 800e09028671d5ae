import { describe, expect, it } from 'vitest';

import { missingKeyHint } from '../missing-key-hint.js';
import { editDistance, nearestKey } from '../near-key.js';

describe('missingKeyHint', () => {
  it('names the misspelt key of the object a required key is missing from, at the root and deep in lists', () => {
    expect(missingKeyHint('record.output_quality_score', { record: { output_quality_scor: 0.9, actual_tao: 1 } })).toBe(
      'record has the key "output_quality_scor" (did you mean "output_quality_score"?)',
    );
    const sssa = {
      findings: [
        { id: 'f1', severity: 'low' },
        { id: 'f2', severty: 'high' },
      ],
    };
    expect(missingKeyHint('sssa.findings[1].severity', { sssa })).toBe('sssa.findings[1] has the key "severty" (did you mean "severity"?)');
    expect(missingKeyHint('task.constraints.max_budget_tao', { task: { constraints: { Max_Budget_TAO: 2 } } })).toBe(
      'task.constraints has the key "Max_Budget_TAO" (did you mean "max_budget_tao"?)',
    );
  });

  it('reads quoted keys as @subnet/core writes them, and treats __proto__ as data', () => {
    const doc = JSON.parse('{"odd key": {"__proto_": 1}, "a": {"b-c x": 1}}') as unknown;
    expect(missingKeyHint('doc["odd key"].__proto__', { doc })).toBe('doc["odd key"] has the key "__proto_" (did you mean "__proto__"?)');
    expect(missingKeyHint('doc.a["b-c y"]', { doc })).toBe('doc.a has the key "b-c x" (did you mean "b-c y"?)');
    const own = JSON.parse('{"__proto__": {"scroe": 1}}') as unknown;
    expect(missingKeyHint('doc.__proto__.score', { doc: own })).toBe('doc.__proto__ has the key "scroe" (did you mean "score"?)');
    // an inherited __proto__ (the object's prototype) is not a key of the document
    expect(missingKeyHint('doc.__proto__.score', { doc: { scroe: 1 } })).toBeUndefined();
  });

  it('picks the closest key, the first on a tie', () => {
    expect(missingKeyHint('r.score', { r: { scores: 1, scroe: 2 } })).toBe('r has the key "scores" (did you mean "score"?)');
    expect(missingKeyHint('r.severity', { r: { severitx: 1, severitz: 2, sevirity: 3 } })).toBe('r has the key "severitx" (did you mean "severity"?)');
  });

  it('says nothing when the key is there, nothing is close, or the path does not lead to an object', () => {
    expect(missingKeyHint('r.score', { r: { score: undefined, scroe: 1 } })).toBeUndefined(); // present, its value is the problem
    expect(missingKeyHint('r.score', { r: { weight: 1 } })).toBeUndefined();
    expect(missingKeyHint('r.score', { other: { scroe: 1 } })).toBeUndefined(); // a label we hold no document for
    expect(missingKeyHint('r.list[3].score', { r: { list: [{ scroe: 1 }] } })).toBeUndefined(); // index out of range
    expect(missingKeyHint('r.list.score', { r: { list: [{ scroe: 1 }] } })).toBeUndefined(); // a list read as an object
    expect(missingKeyHint('r[0]', { r: [{ scroe: 1 }] })).toBeUndefined(); // the missing step is an index
    expect(missingKeyHint('r.list[0]', { r: { list: { 0: 1, '1': 2 } } })).toBeUndefined(); // an object read as a list
    expect(missingKeyHint('r.score', { r: [{ scroe: 1 }] })).toBeUndefined();
    expect(missingKeyHint('r.score', { r: 'text' })).toBeUndefined();
    expect(missingKeyHint('(root)', { r: {} })).toBeUndefined();
    expect(missingKeyHint('r..score', { r: { scroe: 1 } })).toBeUndefined();
    expect(missingKeyHint('r.toString', { r: { toStrin: 1 } })).toBe('r has the key "toStrin" (did you mean "toString"?)');
    expect(missingKeyHint('hasOwnProperty.x', { r: {} })).toBeUndefined();
  });

  it('uses the same closeness as nearestKey: one edit for keys of five letters or fewer, two beyond', () => {
    expect(editDistance('scroe', 'score')).toBe(1);
    expect(nearestKey('uidd', ['uid'])).toBe('uid');
    expect(missingKeyHint('r.uid', { r: { uxx: 1 } })).toBeUndefined(); // two edits from a three-letter key
    expect(missingKeyHint('r.severity', { r: { sevxxity: 1 } })).toBe('r has the key "sevxxity" (did you mean "severity"?)');
    expect(missingKeyHint('r.severity', { r: { sxxxrity: 1 } })).toBeUndefined();
  });
});
