import { packageTestConfig } from '@subnet/vitest-config';

// Each $NACL keyfile costs one Argon2i derivation with 512 MiB: seconds alone, tens of seconds under load.
export default packageTestConfig({ testTimeout: 180_000, fileParallelism: false });
