import { describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, CLIENT_PRINCIPAL_HEADER, clientKey } from './client-key';

describe('clientKey', () => {
  it('is the address the server wrote, and one shared key without it', () => {
    const from = (headers: Record<string, string>) => clientKey(new Request('http://x/api/live', { headers }));
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7' })).toBe('address:10.0.0.7');
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7' })).not.toBe(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.8' }));
    expect(from({})).toBe('address:unknown');
    // A forwarded-for header is not trusted: only scripts/server/server.mjs's own header counts.
    expect(from({ 'x-forwarded-for': '1.2.3.4' })).toBe('address:unknown');
  });

  it('is the session proxy.ts validated when there is one, whatever the address', () => {
    const from = (headers: Record<string, string>) => clientKey(new Request('http://x/api/live', { headers }));
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.7', [CLIENT_PRINCIPAL_HEADER]: 'session:abc' })).toBe('session:abc');
    expect(from({ [CLIENT_ADDRESS_HEADER]: '10.0.0.8', [CLIENT_PRINCIPAL_HEADER]: 'session:abc' })).toBe('session:abc');
  });
});
