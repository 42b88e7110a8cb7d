import { snoozePost } from '@/lib/http/exceptions-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Snoozes an exception that is not resolved for {minutes}; 409 when it is resolved or unknown. */
export const POST = withAppContext(async (app, request: Request, { params }: { params: Promise<{ id: string }> }) =>
  snoozePost(app.services.exceptions, request, (await params).id),
);
