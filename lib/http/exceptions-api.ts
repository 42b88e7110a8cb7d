import 'server-only';
import { logger } from '@/lib/log';
import { z } from 'zod';
import { authService } from '@/lib/auth';
import { readCookies } from '@/lib/auth/cookies';
import { clientAddress } from '@/lib/auth/request-info';
import { errorResponse, jsonResponse } from './responses';
import { roleAtLeast, type Role } from '@/lib/model/access';
import { ruleTimesOf, type ExceptionHistoryResponse, type LiveExceptionsResponse, type WebhookDeliveriesResponse } from '@/lib/model/exceptions';
import type { ExceptionService } from '@/lib/exceptions/service';

// The edge of /api/exceptions: who asks (their name keeps their read marks and signs their acknowledgements), the
// live list, the history over a period, and a dispatcher's actions. proxy.ts has already checked the role the route
// needs (lib/auth/access.ts); the handlers stay a few lines.

interface Asker {
  /** The user's name; `wall:<name>` for a wall display; `everyone` with sign-in off. */
  name: string;
  role: Role;
  address: string | null;
}

export async function whoAsks(request: Request): Promise<Asker> {
  const service = authService();
  if (!service || service.config.mode === 'none') return { name: 'everyone', role: 'admin', address: null };
  const cookies = readCookies(request.headers.get('cookie'));
  const p = await service.principal((n) => cookies.get(n));
  const address = clientAddress(request.headers, service.config);
  if (p.kind === 'user') return { name: p.name, role: p.role, address };
  if (p.kind === 'wall') return { name: `wall:${p.name}`, role: 'viewer', address };
  return { name: 'anonymous', role: 'viewer', address };
}

function unavailable(e: unknown): Response {
  return errorResponse({ status: 503, message: `Exceptions are not available (${e instanceof Error ? e.message : String(e)}).`, correlationId: null });
}

async function withService(s: ExceptionService, read: (s: ExceptionService) => Promise<Response>): Promise<Response> {
  try {
    return await read(s);
  } catch (e) {
    logger().warn({ error: e instanceof Error ? e.message : String(e) }, 'exceptions read failed');
    return unavailable(e);
  }
}

const CAN_ACT: Role = 'dispatcher';
const MAX_HISTORY = 5_000;

const historyQuery = z
  .object({
    from: z.coerce.number({ error: 'from must be epoch milliseconds' }).int().nonnegative(),
    to: z.coerce.number({ error: 'to must be epoch milliseconds' }).int().nonnegative(),
  })
  .refine((q) => q.to > q.from, 'to must be after from')
  .refine((q) => q.to - q.from <= 400 * 86_400_000, 'A period is at most 400 days');

/** GET /api/exceptions: the live list with this user's read marks, or with ?from=&to= the history. */
export async function exceptionsGet(service: ExceptionService, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.searchParams.has('from') || url.searchParams.has('to')) {
    const q = historyQuery.safeParse({ from: url.searchParams.get('from') ?? undefined, to: url.searchParams.get('to') ?? undefined });
    if (!q.success) return errorResponse({ status: 400, message: q.error.issues[0]?.message ?? 'The period is invalid', correlationId: null });
    return withService(service, async (s) => jsonResponse(await historyOf(s, q.data.from, q.data.to)));
  }
  const asker = await whoAsks(request);
  return withService(service, async (s) => {
    const list = await s.live();
    const read = await (await s.exceptionStore()).readBy(asker.name, list.map((e) => e.id));
    const countsByRule: LiveExceptionsResponse['countsByRule'] = {};
    for (const e of list) if (e.state !== 'resolved') countsByRule[e.rule] = (countsByRule[e.rule] ?? 0) + 1;
    const body: LiveExceptionsResponse = { generatedAt: Date.now(), canAct: roleAtLeast(asker.role, CAN_ACT), exceptions: list.map((e) => ({ ...e, unread: !read.has(e.id) })), countsByRule };
    return jsonResponse(body);
  });
}

async function historyOf(s: ExceptionService, from: number, to: number): Promise<ExceptionHistoryResponse> {
  const rows = await (await s.exceptionStore()).openedBetween(from, to, MAX_HISTORY + 1);
  const exceptions = rows.slice(0, MAX_HISTORY);
  return { from, to, exceptions, byRule: ruleTimesOf(exceptions), truncated: rows.length > MAX_HISTORY };
}

const ackBody = z.object({ note: z.string().trim().max(500, 'A note has at most 500 characters').optional() });
const snoozeBody = z.object({ minutes: z.number({ error: 'minutes must be a number' }).int().min(1).max(24 * 60, 'A snooze lasts at most a day (1440 minutes)') });
const readBody = z.object({ ids: z.array(z.string().max(64)).max(1_000) });

async function body<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return { ok: false, response: errorResponse({ status: 400, message: 'The body must be JSON.', correlationId: null }) };
  }
  const r = schema.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, response: errorResponse({ status: 400, message: r.error.issues[0]?.message ?? 'The body is invalid', correlationId: null }) };
}

const notOpen = () => Response.json({ error: { status: 409, message: 'That exception is not open (already acknowledged or resolved, or unknown).' } }, { status: 409, headers: { 'Cache-Control': 'no-cache' } });

/** POST /api/exceptions/{id}/acknowledge {note?}: dispatcher and above. */
export async function acknowledgePost(service: ExceptionService, request: Request, id: string): Promise<Response> {
  const b = await body(request, ackBody);
  if (!b.ok) return b.response;
  const asker = await whoAsks(request);
  return withService(service, async (s) => {
    const e = await s.acknowledge(id, asker.name, b.value.note || null, asker.address);
    return e ? jsonResponse(e) : notOpen();
  });
}

/** POST /api/exceptions/{id}/snooze {minutes}: dispatcher and above. */
export async function snoozePost(service: ExceptionService, request: Request, id: string): Promise<Response> {
  const b = await body(request, snoozeBody);
  if (!b.ok) return b.response;
  const asker = await whoAsks(request);
  return withService(service, async (s) => {
    const e = await s.snooze(id, b.value.minutes, asker.name, asker.address);
    return e ? jsonResponse(e) : notOpen();
  });
}

/** POST /api/exceptions/read {ids}: this user has seen them. */
export async function readPost(service: ExceptionService, request: Request): Promise<Response> {
  const b = await body(request, readBody);
  if (!b.ok) return b.response;
  const asker = await whoAsks(request);
  return withService(service, async (s) => {
    await (await s.exceptionStore()).markRead(b.value.ids, asker.name, Date.now());
    return jsonResponse({ read: b.value.ids.length });
  });
}

/** GET /api/exceptions/deliveries: admins. */
export function deliveriesGet(service: ExceptionService): Promise<Response> {
  return withService(service, async (s) => {
    const store = await s.exceptionStore();
    const body: WebhookDeliveriesResponse = { targets: s.targetCount, byState: await store.deliveryStates(), dead: await store.deadDeliveries(50) };
    return jsonResponse(body);
  });
}
