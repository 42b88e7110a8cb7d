import { readPost } from '@/lib/exceptions/api';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Marks {ids} as seen by this user (read state is per user). */
export function POST(request: Request): Promise<Response> {
  return readPost(request);
}
