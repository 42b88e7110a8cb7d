import { fromStore, parseQuery } from '@/lib/history/api';
import { fleetQuery } from '@/lib/history/params';
import { fleetAt } from '@/lib/history/queries';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Every bus as Fleetmap knew it at `at`: its last fix fetched before then (within a day) and its trip then. */
export async function GET(request: Request): Promise<Response> {
  const q = parseQuery(request, fleetQuery);
  if (!q.ok) return q.response;
  return fromStore((store) => fleetAt(store.db, q.value.at, q.value.route));
}
