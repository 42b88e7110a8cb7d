import { jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';
import { integrationStatus } from '@/lib/server/integration';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The status page's data: health, the last hour of upstream requests and errors, recorder, instance, build. */
export const GET = withAppContext((app) => jsonResponse(integrationStatus(app.feed, app.status)));
