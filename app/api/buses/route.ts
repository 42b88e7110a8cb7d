import type { BusesResponse } from '@/lib/model';
import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The fleet as the poller last listed it. */
export const GET = withAppContext((app) => {
  const r = app.feed.busesList();
  return r.ok ? jsonResponse(r.value satisfies BusesResponse) : errorResponse(r.failure);
});
