import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, frameAncestorsFrom, originsOf } from './security-headers';

function directives(csp: string) {
  return Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
}

describe('content security policy', () => {
  it('allows same-origin workers, the nonce and nothing remote by default', () => {
    const d = directives(contentSecurityPolicy({ nonce: 'abc', mapOrigins: [], frameAncestors: ["'self'"], dev: false }));
    expect(d['script-src']).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(d['worker-src']).toContain("'self'");
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['frame-ancestors']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
  });

  it("admits <style> elements by the nonce only; 'unsafe-inline' is left to style attributes", () => {
    const d = directives(contentSecurityPolicy({ nonce: 'abc', mapOrigins: [], frameAncestors: ["'self'"], dev: false }));
    expect(d['style-src']).toEqual(["'self'", "'nonce-abc'"]);
    expect(d['style-src-attr']).toEqual(["'unsafe-inline'"]);
  });

  it('adds a configured basemap host to connect-src and img-src only', () => {
    const d = directives(
      contentSecurityPolicy({ nonce: 'n', mapOrigins: originsOf(['https://tiles.example.com/style.json']), frameAncestors: ["'self'"], dev: false }),
    );
    expect(d['connect-src']).toContain('https://tiles.example.com');
    expect(d['img-src']).toContain('https://tiles.example.com');
    expect(d['script-src']).not.toContain('https://tiles.example.com');
  });

  it("lets forms lead only to this origin, and to the OpenID Connect issuer's when one is given (sign-out goes on there)", () => {
    expect(directives(contentSecurityPolicy({ nonce: 'abc', mapOrigins: [], frameAncestors: ["'self'"], dev: false }))['form-action']).toEqual(["'self'"]);
    const d = directives(contentSecurityPolicy({ nonce: 'abc', mapOrigins: [], frameAncestors: ["'self'"], formOrigins: ['https://id.example.org'], dev: false }));
    expect(d['form-action']).toEqual(["'self'", 'https://id.example.org']);
  });

  it('permits eval only in development', () => {
    expect(contentSecurityPolicy({ nonce: 'n', mapOrigins: [], frameAncestors: [], dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: 'n', mapOrigins: [], frameAncestors: [], dev: false })).not.toContain('unsafe-eval');
  });
});

describe('frame ancestors', () => {
  it("defaults to 'self', accepts origins and 'none', drops anything else", () => {
    expect(frameAncestorsFrom(undefined)).toEqual(["'self'"]);
    expect(frameAncestorsFrom('none')).toEqual(["'none'"]);
    expect(frameAncestorsFrom('https://signage.example.org javascript:alert(1) *')).toEqual(["'self'", 'https://signage.example.org']);
  });
});

describe('origins', () => {
  it('keeps only http(s) origins of valid URLs', () => {
    expect(originsOf(['https://a.example/x.json', 'ftp://b.example/', 'not a url', undefined])).toEqual(['https://a.example']);
  });
});
