import type { TripResponse } from '@/lib/model';
import { ensureFeedStarted } from '@/lib/fleet';
import { onDemandById } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** One trip, fetched on demand within the budget's headroom (cached briefly, shared by every viewer). */
export const GET = onDemandById(
  'Trip id',
  (id, client) => ensureFeedStarted().trip(id, client),
  (trip, fetchedAt): TripResponse => ({ trip, fetchedAt }),
);
