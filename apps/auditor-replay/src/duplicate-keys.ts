import { formatPath } from '@subnet/core';

/** A key a JSON text names twice in one object, and where that object is. */
export interface DuplicateKey {
  /** Keys and indexes from the document's root to the object (empty: the top-level object). */
  readonly path: readonly (string | number)[];
  /** The key, as JSON reads it (escapes decoded: `"\u0061"` and `"a"` are one key). */
  readonly key: string;
}

type Frame = { readonly kind: 'object'; readonly keys: Set<string>; key: string } | { readonly kind: 'array'; index: number };

/**
 * The first key a JSON text names twice in one object, else undefined. JSON readers differ on such a text (RFC 8259
 * section 4: most take the last value, some the first, some refuse it), so one file can show two documents: the
 * auditor refuses it as a bundle (docs/spec.md G.17). One pass over the text with an explicit stack (no recursion,
 * whatever the depth); only keys are decoded. The text must be JSON already (`JSON.parse` took it).
 *
 * @param text - a JSON text
 * @returns the first repeated key and the path of its object, or undefined
 * @example findDuplicateKey('{"a":{"b":1,"b":2}}') // { path: ['a'], key: 'b' }
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      if (expectKey && top?.kind === 'object') {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.keys.has(key)) return { path: stack.slice(0, -1).map((f) => (f.kind === 'object' ? f.key : f.index)), key };
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === 0x7b) {
      stack.push({ kind: 'object', keys: new Set(), key: '' });
      expectKey = true;
    } else if (c === 0x5b) {
      stack.push({ kind: 'array', index: 0 });
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top?.kind === 'object') expectKey = true;
      else if (top !== undefined) top.index++;
    }
    i++;
  }
  return undefined;
}

/** The index just past the closing quote of the string literal that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return i;
}

/**
 * The words a refusal names a repeated key with: the key and the path of its object (`at bundle.result`, or `in the
 * top-level object`).
 *
 * @param found - the repeated key
 * @returns the message
 * @example duplicateKeyMessage({ path: ['bundle', 'result'], key: 'u16' })
 */
export function duplicateKeyMessage(found: DuplicateKey): string {
  const where = found.path.length === 0 ? 'in the top-level object' : `in one object at ${formatPath(found.path)}`;
  return (
    `the JSON text names the key ${JSON.stringify(found.key)} twice ${where}: JSON readers differ on which value they take ` +
    '(RFC 8259 section 4), so the file does not hold one bundle; a validator writes canonical JSON, which never repeats a key'
  );
}
