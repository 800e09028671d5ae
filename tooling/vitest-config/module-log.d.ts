/** The `node --import` file that logs every module URL the process resolves. */
export declare const moduleLogRegister: string;
/** Runs `node` with the module log on; returns its exit code, its stderr and the names of the packages it resolved. */
export declare function packagesLoaded(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): { code: number | null; stderr: string; packages: Set<string> };
