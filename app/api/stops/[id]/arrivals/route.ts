import { onDemandById } from '@/lib/http/responses';
import { predictions } from '@/lib/predictions';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The next predicted arrivals at the physical stop of a route stop, every route serving it (lib/predictions). */
export const GET = onDemandById(
  'Stop id',
  async (id) => predictions().arrivalsAt(id),
  (value) => value,
);
