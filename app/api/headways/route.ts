import { z } from 'zod';
import type { HeadwaysResponse } from '@/lib/model';
import { pageViewer } from '@/lib/auth/page';
import { errorResponse, jsonResponse } from '@/lib/http/responses';
import { withNextArrivals } from '@/lib/predictions';
import { withAppContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const routesParam = z
  .string()
  .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean))
  .refine((a) => a.length > 0 && a.length <= 50, 'route must list 1 to 50 routes, separated by commas')
  .refine((a) => a.every((t) => t.length <= 32), 'each route must be at most 32 characters')
  .nullable();

/**
 * Every direction's buses in order, the gaps between them and their classes, and the ghosts: ?route=M15,M101. Each
 * bus comes with its next stop and predicted arrival (lib/predictions), which the ladder shows.
 */
export const GET = withAppContext(async (app, request: Request) => {
  const parsed = routesParam.safeParse(new URL(request.url).searchParams.get('route'));
  if (!parsed.success) return errorResponse({ status: 400, message: parsed.error.issues[0]!.message, correlationId: null });
  // A wall token limited to some routes sees only those, as on /api/live.
  const viewer = await pageViewer();
  const limitedTo = viewer?.kind === 'wall' ? viewer.routes : null;
  const answer = app.services.headways.answer(parsed.data, limitedTo);
  return jsonResponse(withNextArrivals(answer, app.services.predictions.predictionSet().trips) satisfies HeadwaysResponse);
});
