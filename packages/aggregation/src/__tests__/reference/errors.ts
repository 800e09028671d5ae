/** The reference's rejection: only the code is compared with production (reference only). */
export class Rejected extends Error {
  constructor(
    readonly code: string,
    what: string,
  ) {
    super(`${code}: ${what}`);
  }
}

export function reject(code: string, what: string): never {
  throw new Rejected(code, what);
}

/** Code-point order of two strings (SPEC 0), written out. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
