import { packageTestConfig } from '@subnet/vitest-config';

export default packageTestConfig();
