/**
 * Every published code keeps its name and value, the published names are the first keys of `codes` in
 * order (new codes go at the end), no two codes share a value, and `codes` is frozen.
 */
export function expectPublishedCodes(codes: Readonly<Record<string, string>>, published: Readonly<Record<string, string>>): void;

/** The text of every `.ts` file under the folder `srcUrl` (a `file:` URL), tests and benchmarks left out. */
export function sourceText(srcUrl: URL): string;

/**
 * For a package that writes its codes as string literals where it raises them: every published code is
 * still written (as `'CODE'`) in the source under `srcUrl`, every `prefix` code written there is published,
 * and the list has no duplicate.
 */
export function expectRaisedCodes(srcUrl: URL, prefix: string, published: readonly string[]): void;

/**
 * For a package whose codes live in one file: no `.ts` file under `srcUrl` other than `codesFile` (a path relative
 * to `srcUrl`, e.g. `'errors.ts'`) writes a `prefix` code as a string literal (`'CODE'`), so every raise site uses
 * the constant. Tests and benchmarks are left out.
 */
export function expectCodesInOneFile(srcUrl: URL, prefix: string, codesFile: string): void;
