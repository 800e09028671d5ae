import fc from 'fast-check';

// Random SSSA documents and mutations of them, for the properties that compare the hand-written
// validators with the zod schema (shared by fast-validator.test.ts and fresh-sets.test.ts).

const TEXT = [
  '',
  ' ',
  '\t',
  '\u00a0',
  'a',
  ' A ',
  'x|y',
  'a,b',
  'HİGH',
  'high',
  ' High ',
  'critical',
  'LOW',
  '\ud800',
  'a\udc00b',
  '😀',
  '__proto__',
  'constructor',
];
const REFS = ['tools/a.py#L1-L4', 's1:./tools//a.py:3', 'a.py#L9-L3', 'span:', '#L3', '', ' ', 'a|b.py', 'README.md#usage', 'x\\y.py:007', '\ud800.py'];
const textArb = fc.oneof(fc.constantFrom(...TEXT), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }));
const hostile = fc.oneof(
  textArb,
  fc.constantFrom<unknown>(
    null,
    undefined,
    0,
    -1,
    2,
    0.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    [],
    {},
    [[]],
    { a: { b: { c: [1] } } },
    new Date(0),
    () => 1,
  ),
  fc.constantFrom('ALLOW', 'BLOCK', 'REVIEW', 'allow'),
  fc.constantFrom(...REFS),
  fc.array(textArb, { maxLength: 3 }),
);

const findingArb = fc.record({
  id: textArb,
  category: fc.oneof(fc.constantFrom('tool_poison', ' Prompt_Injection '), textArb),
  severity: fc.oneof(fc.constantFrom('high', ' Critical ', 'LOW', 'medium'), textArb),
  description: textArb,
  evidence_ref: fc.oneof(fc.constantFrom(...REFS), textArb),
  cve_ids: fc.array(fc.oneof(fc.constantFrom('CVE-2018-18074', ' cve-1 '), textArb), { maxLength: 3 }),
  target_pattern: fc.oneof(fc.constantFrom('getfile', 'requests==2.19.1'), textArb),
});
export const docArb = fc.record(
  {
    schema_version: fc.constantFrom('sssa/1', ''),
    skill: fc.constantFrom<unknown>({ name: 'x' }, 'x', { deep: [[[[{}]]]] }),
    signature: fc.constantFrom<unknown>('0xab', { alg: 'sr25519' }, 3),
    verdict: fc.constantFrom<unknown>('ALLOW', 'BLOCK', 'REVIEW'),
    risk_score: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-0, 1)),
    findings: fc.array(findingArb, { maxLength: 4 }),
    capabilities: fc.array(fc.oneof(fc.constantFrom('fs.read', ' FS.Read '), textArb), { maxLength: 4 }),
    dependencies: fc.array(
      fc.record({
        package: fc.oneof(fc.constantFrom('requests'), textArb),
        version: fc.oneof(fc.constantFrom('2.19.1'), textArb),
        cves: fc.array(textArb, { maxLength: 2 }),
      }),
      { maxLength: 3 },
    ),
    policy: fc.record({ rules: fc.array(fc.record({ resource: textArb, action: textArb, pattern: textArb }), { maxLength: 3 }) }),
  },
  { requiredKeys: ['verdict', 'risk_score', 'findings', 'capabilities', 'dependencies', 'policy'] },
);

/** Paths of every value inside `value` (objects and arrays), the root included as []. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) for (const k of Object.keys(value)) paths((value as Record<string, unknown>)[k], [...prefix, k], out);
  return out;
}

export type Mutation =
  { kind: 'set'; value: unknown; key: string } | { kind: 'delete' } | { kind: 'add'; key: string; value: unknown } | { kind: 'nest'; depth: number };

/** A copy of `doc` with one mutation at the `which`-th path. */
export function mutate(doc: unknown, which: number, mutation: Mutation): unknown {
  const copy = structuredClone(doc);
  const all = paths(copy);
  const path = all[which % all.length] ?? [];
  if (path.length === 0) return mutation.kind === 'set' ? mutation.value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  switch (mutation.kind) {
    case 'set':
      parent[last] = mutation.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else Reflect.deleteProperty(parent, last);
      break;
    case 'add': {
      const target = parent[last];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
        Object.defineProperty(target, mutation.key, { value: mutation.value, enumerable: true, writable: true, configurable: true });
      }
      break;
    }
    case 'nest': {
      let nested: unknown = 'leaf';
      for (let i = 0; i < mutation.depth; i++) nested = i % 2 === 0 ? [nested] : { n: nested };
      parent[last] = nested;
      break;
    }
  }
  return copy;
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), value: hostile, key: fc.constant('') }),
  fc.constant({ kind: 'delete' as const }),
  fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom('__proto__', 'constructor', 'toString', 'x_extra', '\ud800'), value: hostile }),
  fc.record({ kind: fc.constant('nest' as const), depth: fc.integer({ min: 1, max: 70 }) }),
);
