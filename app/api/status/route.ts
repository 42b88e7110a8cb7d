import { ensureFeedStarted } from '@/lib/fleet';
import { jsonResponse } from '@/lib/http/responses';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The feed's health: upstream state, plan and capabilities, budget, freshness, timezone. */
export function GET(): Response {
  return jsonResponse(ensureFeedStarted().health());
}
