/**
 * URL redaction: the one place every package and app hides URL credentials before a URL (or a text that
 * contains URLs) reaches a log line, an error message, an error context or a page.
 */

/** What replaces a hidden credential. */
const HIDDEN = '***';

/**
 * Any `scheme://…` run, or a scheme-relative `//…` one (a mistyped endpoint such as `//user:pw@host`), up
 * to whitespace, a quote, an angle bracket or a parenthesis.
 */
const URL_IN_TEXT = /(?:[a-z][a-z0-9+.-]*:)?\/\/[^\s"'<>`()/][^\s"'<>`()]*/gi;

/**
 * Query parameter names that look like credentials: exact short names, or names containing a credential
 * word (`password`, `sslpassword`, `access_token`, `client_secret`, `x-api-key`, `authToken`, ...).
 */
const CREDENTIAL_EXACT = new Set(['pass', 'pwd', 'auth', 'key', 'sig', 'signature', 'apikey', 'token', 'secret', 'password']);
const CREDENTIAL_WORD = /pass|pwd|secret|token|key|auth|credential|signature/i;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

function isCredentialName(name: string): boolean {
  const decoded = decodeName(name).toLowerCase();
  return CREDENTIAL_EXACT.has(decoded) || CREDENTIAL_WORD.test(decoded);
}

function redactQuery(query: string): string {
  return query
    .split(/([&;])/)
    .map((part) => {
      if (part === '&' || part === ';') return part;
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      if (eq === -1 || !isCredentialName(name)) return part;
      return `${name}=${HIDDEN}`;
    })
    .join('');
}

function redactOne(url: string): string {
  const scheme = url.indexOf('//') + 2;
  // The authority ends at the first `/`, `?` or `#` after the scheme; userinfo ends at its last `@`.
  const rest = url.slice(scheme);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const afterAuthority = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const host = at === -1 ? authority : `${HIDDEN}@${authority.slice(at + 1)}`;
  const hash = afterAuthority.indexOf('#');
  const beforeHash = hash === -1 ? afterAuthority : afterAuthority.slice(0, hash);
  const fragment = hash === -1 ? '' : afterAuthority.slice(hash);
  const q = beforeHash.indexOf('?');
  const path = q === -1 ? beforeHash : beforeHash.slice(0, q);
  const query = q === -1 ? '' : `?${redactQuery(beforeHash.slice(q + 1))}`;
  return `${url.slice(0, scheme)}${host}${path}${query}${fragment}`;
}

/**
 * Hides URL credentials: the userinfo (`user:password@`, or a bare token before `@`) becomes `***@`, and
 * every query parameter whose name looks like a credential (`password`, `pass`, `pwd`, `token`, `secret`,
 * `key`, `apikey`, `access_token`, `auth`, `sslpassword`, and names containing those words) keeps its name
 * with the value `***`. Everything else (host, port, path, harmless parameters such as `sslmode`) is kept
 * as written, so the result still says where the URL points. Works on one URL or on any text: every
 * `scheme://…` and scheme-relative `//…` in it is redacted (error messages of drivers often quote the URL).
 *
 * @param text - a URL, or a text containing URLs
 * @returns the same text with URL credentials replaced by `***`
 * @example redactUrl('postgresql://app:s3cret@db:5432/v?sslmode=require&password=x') // 'postgresql://***@db:5432/v?sslmode=require&password=***'
 */
export function redactUrl(text: string): string {
  return text.replace(URL_IN_TEXT, redactOne);
}
