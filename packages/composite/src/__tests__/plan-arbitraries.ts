import fc from 'fast-check';

/**
 * Random workflow plans for the property tests of the plan readers: up to six nodes whose ids include prototype
 * names and an index-like key, random edges among them (self edges, repeats and cycles included), error_handling
 * entries, and unknown keys at every level (`__proto__`, `constructor`, index-like, a lone surrogate, `-0` values).
 */
export const IDS = ['a', 'b', '__proto__', 'constructor', 'toString', '1'];
export const EXTRA_KEYS = ['note', '__proto__', 'constructor', '7', 'id', 'from', 'retry_count', '\ud800'];

/** Defines `key` as an own enumerable data property (so `__proto__` is a key, not a prototype). */
export function put(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export const extrasArb = fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(-0))), { maxLength: 2 });

export const planArb = fc
  .record({
    n: fc.integer({ min: 1, max: IDS.length }),
    edges: fc.option(fc.array(fc.tuple(fc.nat(5), fc.nat(5), extrasArb), { maxLength: 4 })),
    handling: fc.option(
      fc.array(fc.tuple(fc.nat(5), fc.option(fc.oneof(fc.nat(3), fc.constant(-0))), fc.option(fc.double({ min: 0.25, max: 9, noNaN: true })), extrasArb), {
        maxLength: 3,
      }),
    ),
    nodeExtras: fc.array(extrasArb, { minLength: IDS.length, maxLength: IDS.length }),
    planExtras: extrasArb,
    order: fc.boolean(),
  })
  .map(({ n, edges, handling, nodeExtras, planExtras, order }) => {
    const plan: Record<string, unknown> = {};
    const nodes = IDS.slice(0, n).map((id, i) => {
      const node: Record<string, unknown> = {};
      if (order) put(node, 'id', id);
      for (const [key, value] of nodeExtras[i]!) if (key !== 'id') put(node, key, value);
      if (!order) put(node, 'id', id);
      return node;
    });
    for (const [key, value] of planExtras) if (key !== 'id') put(plan, key, value);
    put(plan, 'nodes', nodes);
    if (edges !== null) {
      put(
        plan,
        'edges',
        edges.map(([from, to, extras]) => {
          const edge: Record<string, unknown> = { from: IDS[from % n], to: IDS[to % n] };
          for (const [key, value] of extras) if (key !== 'from') put(edge, key, value);
          return edge;
        }),
      );
    }
    if (handling !== null) {
      const errorHandling: Record<string, unknown> = {};
      for (const [node, retries, seconds, extras] of handling) {
        const entry: Record<string, unknown> = {};
        for (const [key, value] of extras) if (key !== 'retry_count') put(entry, key, value);
        if (retries !== null) put(entry, 'retry_count', retries);
        if (seconds !== null) put(entry, 'timeout_seconds', seconds);
        put(errorHandling, IDS[node % n]!, entry);
      }
      put(plan, 'error_handling', errorHandling);
    }
    return plan;
  });
