import { describe, expect, it } from 'vitest';

import { redactUrl } from '../index.js';

describe('redactUrl', () => {
  it('hides the userinfo form (user:password@) and keeps host, port, path and harmless parameters', () => {
    expect(redactUrl('postgresql://app:s3cret@db.internal:5432/validator?sslmode=require')).toBe('postgresql://***@db.internal:5432/validator?sslmode=require');
    expect(redactUrl('wss://token-only@node.example/ws')).toBe('wss://***@node.example/ws');
  });

  it('hides a password containing an unencoded @ (userinfo ends at the last @ of the authority)', () => {
    const out = redactUrl('postgres://u:p@ss@host/db');
    expect(out).toBe('postgres://***@host/db');
    expect(out).not.toContain('ss@');
  });

  it('hides the query form: every credential-looking parameter keeps its name and loses its value', () => {
    const url =
      'postgresql://db:5432/v?sslmode=require&password=pw1&pass=pw2&pwd=pw3&token=t1&secret=s1&key=k1&apikey=k2&access_token=t2&auth=a1&sslpassword=pw4&application_name=val';
    const out = redactUrl(url);
    expect(out).toBe(
      'postgresql://db:5432/v?sslmode=require&password=***&pass=***&pwd=***&token=***&secret=***&key=***&apikey=***&access_token=***&auth=***&sslpassword=***&application_name=val',
    );
    for (const secret of ['pw1', 'pw2', 'pw3', 't1', 's1', 'k1', 'k2', 't2', 'a1', 'pw4']) expect(out).not.toContain(`=${secret}`);
  });

  it('recognises credential names case-insensitively, percent-encoded, and inside longer names', () => {
    expect(redactUrl('https://h/x?PassWord=a&client_secret=b&x-api-key=c&%70assword=d&page=2')).toBe(
      'https://h/x?PassWord=***&client_secret=***&x-api-key=***&%70assword=***&page=2',
    );
  });

  it('hides both forms at once and keeps the fragment', () => {
    expect(redactUrl('postgres://u:p@h/db?password=x#frag')).toBe('postgres://***@h/db?password=***#frag');
  });

  it('redacts every URL inside a free text (driver error messages quote URLs)', () => {
    const text = 'cannot connect to postgresql://admin:hunter2@10.0.0.1/db?password=hunter3 (then tried wss://k@node/ws?token=abc)';
    const out = redactUrl(text);
    expect(out).toBe('cannot connect to postgresql://***@10.0.0.1/db?password=*** (then tried wss://***@node/ws?token=***)');
    expect(out).not.toMatch(/hunter|abc/);
  });

  it('hides the credentials of a scheme-relative //user:pw@host in a text (a mistyped endpoint quoted in an error)', () => {
    expect(redactUrl('not a url //me:pw@x?q=1&token=t')).toBe('not a url //***@x?q=1&token=***');
    expect(redactUrl('//:tok@node.example/ws')).toBe('//***@node.example/ws');
    expect(redactUrl('a//b and file:///etc/hosts')).toBe('a//b and file:///etc/hosts');
  });

  it('leaves a URL without credentials and a text without URLs unchanged', () => {
    expect(redactUrl('ws://127.0.0.1:9944')).toBe('ws://127.0.0.1:9944');
    expect(redactUrl('no url here: password=x')).toBe('no url here: password=x');
  });
});
