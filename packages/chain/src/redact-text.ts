/**
 * Redacts endpoint credentials inside free text (an error message, a log line): the user-info of every
 * ws(s)/http(s) URL becomes `***@` and its query string `?***`, wherever the URL appears in the text.
 *
 * @param text - any text
 * @returns the text with every URL's credentials replaced
 * @example redactText('disconnected from wss://u:p@node:443/?key=1: 1006') // 'disconnected from wss://***@node:443/?***: 1006'
 */
export function redactText(text: string): string {
  return text.replace(/((?:wss?|https?):\/\/)[^/@\s]*@/gi, '$1***@').replace(/((?:wss?|https?):\/\/[^\s?]*)\?[^\s:]*/gi, '$1?***');
}
