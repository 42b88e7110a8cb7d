import { describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from '@/lib/http/client-key';
import { appOrigin, clientAddress, isCrossSite, isHttps } from './request-info';

const direct = { trustProxyHops: 0, publicUrl: null };
const behindOne = { trustProxyHops: 1, publicUrl: null };
const h = (o: Record<string, string>) => new Headers(o);

describe('where a request comes from', () => {
  it('the socket peer, unless TRUST_PROXY says how many proxies to believe', () => {
    const headers = h({ [CLIENT_ADDRESS_HEADER]: '10.0.0.9', 'x-forwarded-for': '6.6.6.6, 203.0.113.7' });
    expect(clientAddress(headers, direct)).toBe('10.0.0.9');
    // One proxy appended the client it saw: the rightmost entry; what the client wrote to the left is ignored.
    expect(clientAddress(headers, behindOne)).toBe('203.0.113.7');
    expect(clientAddress(headers, { trustProxyHops: 2, publicUrl: null })).toBe('6.6.6.6');
    expect(clientAddress(h({ [CLIENT_ADDRESS_HEADER]: '10.0.0.9' }), behindOne)).toBe('10.0.0.9');
  });

  it('HTTPS directly, from a trusted proxy, or per PUBLIC_URL; a forwarded proto is not believed without TRUST_PROXY', () => {
    const plain = new URL('http://fleet.internal/');
    expect(isHttps(new URL('https://fleet.internal/'), h({}), direct)).toBe(true);
    expect(isHttps(plain, h({ 'x-forwarded-proto': 'https' }), direct)).toBe(false);
    expect(isHttps(plain, h({ 'x-forwarded-proto': 'https' }), behindOne)).toBe(true);
    expect(isHttps(plain, h({}), { trustProxyHops: 0, publicUrl: new URL('https://fleet.example.org') })).toBe(true);
  });

  it('the app origin: PUBLIC_URL, else the Host (forwarded only when trusted)', () => {
    const url = new URL('http://127.0.0.1:3000/x');
    expect(appOrigin(url, h({ host: '127.0.0.1:3000' }), direct)).toBe('http://127.0.0.1:3000');
    expect(appOrigin(url, h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example' }), direct)).toBe('http://127.0.0.1:3000');
    expect(appOrigin(url, h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'fleet.example.org', 'x-forwarded-proto': 'https' }), behindOne)).toBe('https://fleet.example.org');
    expect(appOrigin(url, h({ host: 'whatever' }), { trustProxyHops: 0, publicUrl: new URL('https://fleet.example.org/base') })).toBe('https://fleet.example.org');
  });
});

describe('isCrossSite', () => {
  const url = new URL('http://127.0.0.1:3000/api/admin/tokens');
  const own = { host: '127.0.0.1:3000' };
  it('never for reads', () => {
    expect(isCrossSite('GET', url, h({ ...own, origin: 'https://evil.example' }), direct)).toBe(false);
    expect(isCrossSite('HEAD', url, h({}), direct)).toBe(false);
  });
  it('a change must name our origin, or come same-origin by Fetch Metadata', () => {
    expect(isCrossSite('POST', url, h({ ...own, origin: 'http://127.0.0.1:3000' }), direct)).toBe(false);
    expect(isCrossSite('DELETE', url, h({ ...own, 'sec-fetch-site': 'same-origin' }), direct)).toBe(false);
    expect(isCrossSite('POST', url, h({ ...own, origin: 'https://evil.example' }), direct)).toBe(true);
    expect(isCrossSite('POST', url, h({ ...own, origin: 'null', 'sec-fetch-site': 'cross-site' }), direct)).toBe(true);
    expect(isCrossSite('POST', url, h({ ...own, 'sec-fetch-site': 'same-site' }), direct)).toBe(true);
    expect(isCrossSite('POST', url, h(own), direct)).toBe(true);
  });
});
