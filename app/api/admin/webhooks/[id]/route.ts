import { webhookTargetDelete } from '@/lib/http/webhook-targets-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Removes a webhook target added in the admin page. */
export const DELETE = withAppContext(async (app, request: Request, ctx: { params: Promise<{ id: string }> }) => webhookTargetDelete(app.services.exceptions, request, (await ctx.params).id));
