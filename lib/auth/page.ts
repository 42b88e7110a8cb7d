import 'server-only';
import { cookies, headers } from 'next/headers';
import { cookieReader } from './cookies';
import { isHttps } from './request-info';
import type { Viewer } from '@/lib/model/access';
import { authService } from './index';

/**
 * The viewer a page renders for. proxy.ts has already refused whoever may not see the page; this only tells the
 * page who it is (null on a public page nobody is signed in to).
 */
export async function pageViewer(): Promise<Viewer | null> {
  const service = authService();
  if (!service) return { kind: 'open', role: 'admin', warning: null };
  const jar = await cookies();
  const secure = isHttps(new URL('http://localhost/'), await headers(), service.config);
  const cookie = cookieReader({ get: (name) => jar.get(name)?.value }, secure);
  return service.viewer(await service.principal((name) => cookie(name)));
}
