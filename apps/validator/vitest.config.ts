import { packageTestConfig } from '@subnet/vitest-config';

export default packageTestConfig({ testTimeout: 30_000 });
