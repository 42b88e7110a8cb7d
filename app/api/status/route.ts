import { jsonResponse } from '@/lib/http/responses';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The feed's health: upstream state, plan and capabilities, budget, freshness, timezone. */
export const GET = withAppContext((app) => jsonResponse(app.feed.health()));
