import type { JsonRpcErrorObject } from './rpc-errors.js';

/** Hooks the fault injector uses to intercept submissions. */
export interface SubmissionInterceptor {
  /** Called before every submission; may delay it, replace it with an error, or mark it lost. */
  intercept(): Promise<{ readonly reject?: JsonRpcErrorObject; readonly lost?: boolean }>;
}
