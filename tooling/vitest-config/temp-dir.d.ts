/** A fresh temp folder removed when the current test finishes (`test`) or after the file's tests (`file`). */
export declare function tempDir(prefix?: string, scope?: 'test' | 'file'): string;
/** A maker of fresh temp folders, each removed after the test that made it (call at file or describe level). */
export declare function tempDirs(prefix?: string): () => string;
/** Removes the folders made with the `file` scope so far (the preset's setup file runs it after each test file). */
export declare function removeFileTempDirs(): void;
