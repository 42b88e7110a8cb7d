import { webhookTargetsGet, webhookTargetsPost } from '@/lib/http/webhook-targets-api';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The webhook targets added in the admin page (secrets masked). */
export const GET = withAppContext((app) => webhookTargetsGet(app.services.exceptions));

/** Adds a webhook target: https URL (http only on loopback), secret of 16+ characters, rules, least severity. */
export const POST = withAppContext((app, request: Request) => webhookTargetsPost(app.services.exceptions, request));
