import { acknowledgePost } from '@/lib/exceptions/api';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Acknowledges an open exception, with an optional note; 409 when it is not open. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return acknowledgePost(request, (await params).id);
}
