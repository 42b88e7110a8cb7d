import type { BusesResponse } from '@/lib/model';
import { ensureFeedStarted } from '@/lib/fleet';
import { errorResponse, jsonResponse } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The fleet as the poller last listed it. */
export function GET(): Response {
  const r = ensureFeedStarted().busesList();
  return r.ok ? jsonResponse(r.value satisfies BusesResponse) : errorResponse(r.failure);
}
