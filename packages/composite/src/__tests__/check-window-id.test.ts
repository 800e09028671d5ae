import { describe, expect, it } from 'vitest';

import { addTaskScore, checkWindowId, COMPOSITE_ERROR_CODES, emptyWindowState, MAX_WINDOW_ID_LENGTH } from '../index.js';

const hotkey = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

/** The window's own verdict on an entry carrying `taskId`: undefined when it takes it, else the error. */
function windowVerdict(taskId: unknown): unknown {
  try {
    addTaskScore(emptyWindowState(), { uid: 1, hotkey, taskId, score: 0.5, arrival: 0 } as never);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('checkWindowId: the window id rule, for a boundary that feeds ids into a window later', () => {
  it('takes exactly the task ids the window takes, and refuses the others with the window code at the given path', () => {
    const ids: unknown[] = ['t', 't'.repeat(MAX_WINDOW_ID_LENGTH), 't'.repeat(MAX_WINDOW_ID_LENGTH + 1), '', 'a\ud800b', '\ud83d\ude00', 7, null];
    for (const id of ids) {
      const windowRefused = windowVerdict(id) !== undefined;
      if (windowRefused) {
        expect(() => checkWindowId(id, 'body.task.task_id'), String(id).slice(0, 20)).toThrow(
          expect.objectContaining({ code: COMPOSITE_ERROR_CODES.invalidWindowEntry, context: expect.objectContaining({ path: 'body.task.task_id' }) }),
        );
      } else expect(checkWindowId(id, 'body.task.task_id')).toBe(id);
    }
    expect(windowVerdict('t'.repeat(MAX_WINDOW_ID_LENGTH + 1))).toBeDefined();
    expect(windowVerdict('t'.repeat(MAX_WINDOW_ID_LENGTH))).toBeUndefined();
  });
});
