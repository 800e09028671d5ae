import { wrongKindSentence } from '@subnet/cli-support';

/**
 * A signed bundle's refusal, led by what the document looks like when it is another kind of file the CLIs take (a
 * workflow execution record, a peers file, ...): `[AUDITOR_INVALID_BUNDLE] this file looks like a workflow execution
 * record (...): give it to miner-check workflow --run; invalid signed: ... at signed.bundle (got undefined)`. The code,
 * the path and the rest of the message are kept; anything that looks like no other kind is returned as it is.
 *
 * @param document - the parsed document that is not a signed bundle
 * @param error - its refusal (code, message `[CODE] ...`)
 * @returns the refusal, its message led by what the document looks like
 * @example leadWithKind(JSON.parse(runJson), errorOf(error)).message
 */
export function leadWithKind<E extends { readonly code: string; readonly message: string }>(document: unknown, error: E): E {
  const looks = wrongKindSentence(document, ['signed-bundle']);
  if (looks === undefined) return error;
  const prefix = `[${error.code}] `;
  const rest = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return { ...error, message: `${prefix}this file ${looks}; ${rest}` };
}
