import { expect, it } from 'vitest';

import { AXON_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidDefinition: 'AXON_INVALID_DEFINITION',
  invalidJson: 'AXON_INVALID_JSON',
  invalidValue: 'AXON_INVALID_VALUE',
  invalidHeader: 'AXON_INVALID_HEADER',
  invalidAxonInfo: 'AXON_INVALID_AXON_INFO',
  serverStart: 'AXON_SERVER_START',
};

it('codes are append-only: every published axon code keeps its name and value', () => {
  for (const [name, value] of Object.entries(PUBLISHED)) expect(AXON_ERROR_CODES[name as keyof typeof AXON_ERROR_CODES]).toBe(value);
  expect(Object.keys(AXON_ERROR_CODES).slice(0, Object.keys(PUBLISHED).length)).toEqual(Object.keys(PUBLISHED));
  expect(new Set(Object.values(AXON_ERROR_CODES)).size).toBe(Object.values(AXON_ERROR_CODES).length);
  expect(Object.isFrozen(AXON_ERROR_CODES)).toBe(true);
});
