import 'server-only';
import { headers } from 'next/headers';

/** This request's CSP nonce (proxy.ts puts it in the request's x-nonce header); undefined without one. */
export async function pageNonce(): Promise<string | undefined> {
  return (await headers()).get('x-nonce') ?? undefined;
}
