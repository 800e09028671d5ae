import { packageTestConfig } from '@subnet/vitest-config';

// Packing, installing from the registry and three TypeScript runs take a few minutes on a loaded machine.
export default packageTestConfig({ testTimeout: 600_000, hookTimeout: 900_000, fileParallelism: false });
