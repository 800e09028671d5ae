import type { UserConfig } from 'vitest/config';
export declare function packageTestConfig(options?: { testTimeout?: number; hookTimeout?: number; fileParallelism?: boolean; include?: string[] }): UserConfig;
