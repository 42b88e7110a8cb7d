import 'server-only';
import { cookies } from 'next/headers';
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
  return service.viewer(await service.principal((name) => jar.get(name)?.value));
}
