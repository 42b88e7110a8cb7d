import { ensureFeedStarted } from '@/lib/fleet';
import { jsonResponse } from '@/lib/http/responses';
import { integrationStatus } from '@/lib/server/integration';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The status page's data: health, the last hour of upstream requests and errors, recorder, instance, build. */
export function GET(): Response {
  return jsonResponse(integrationStatus(ensureFeedStarted()));
}
