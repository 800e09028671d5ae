/** Throws, naming the command to run, when `<packageDir>/dist/cli.js` is missing or older than a source file of the package. */
export declare function expectBuiltCli(packageDir: string): void;
