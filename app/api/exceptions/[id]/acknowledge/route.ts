import { acknowledgePost } from '@/lib/http/exceptions-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Acknowledges an open exception, with an optional note; 409 when it is not open. */
export const POST = withAppContext(async (app, request: Request, { params }: { params: Promise<{ id: string }> }) =>
  acknowledgePost(app.services.exceptions, request, (await params).id),
);
