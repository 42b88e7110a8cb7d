import { snoozePost } from '@/lib/exceptions/api';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Snoozes an exception that is not resolved for {minutes}; 409 when it is resolved or unknown. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return snoozePost(request, (await params).id);
}
