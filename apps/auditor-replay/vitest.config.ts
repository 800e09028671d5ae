import { packageTestConfig } from '@subnet/vitest-config';

export default packageTestConfig({ testTimeout: 60_000 });
