import { webhookTargetTest } from '@/lib/http/webhook-targets-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Sends one signed test delivery to a webhook target now and answers with the receiver's status. */
export const POST = withAppContext(async (app, _request: Request, ctx: { params: Promise<{ id: string }> }) => webhookTargetTest(app.services.exceptions, (await ctx.params).id));
