import 'server-only';
import { logger } from '@/lib/log';
import { parseAdminWebhookTarget } from '@/lib/exceptions/config';
import type { ExceptionService } from '@/lib/exceptions/service';
import { whoAsks } from './exceptions-api';
import { errorResponse, parseId } from './responses';

// The edge of /api/admin/webhooks: the webhook targets the admin page adds, lists, tests and removes (ALERT_WEBHOOKS'
// stay in the environment and are not listed). proxy.ts has checked the admin role and the Origin already.

const NO_STORE = { 'Cache-Control': 'no-store' };
const fail = (status: 400 | 404 | 503, message: string) => errorResponse({ status, message, correlationId: null });

async function guarded(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    logger().warn({ error: message }, 'webhook targets failed');
    return fail(503, `Webhook targets are not available (${message}).`);
  }
}

/** GET: every target the admin page added, newest first, secrets masked. */
export function webhookTargetsGet(s: ExceptionService): Promise<Response> {
  return guarded(async () => Response.json({ targets: await s.webhookTargets() }, { headers: NO_STORE }));
}

/** POST: adds a target after the same checks as ALERT_WEBHOOKS'. */
export async function webhookTargetsPost(s: ExceptionService, request: Request): Promise<Response> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return fail(400, 'The body must be JSON: {"url": "https://...", "secret": "...", "rules": ["late"], "minSeverity": "warning"}.');
  }
  const parsed = parseAdminWebhookTarget(raw);
  if (!parsed.ok) return fail(400, parsed.problem);
  const who = await whoAsks(request);
  return guarded(async () => Response.json({ target: await s.addWebhookTarget(parsed.target, who.name, who.address) }, { status: 201, headers: NO_STORE }));
}

/** DELETE /{id}: removes a target; its queued deliveries die at their next try. */
export async function webhookTargetDelete(s: ExceptionService, request: Request, rawId: string): Promise<Response> {
  const id = parseId(rawId, 'Webhook target id');
  if (!id.ok) return id.response;
  const who = await whoAsks(request);
  return guarded(async () => {
    const row = await s.removeWebhookTarget(id.value, who.name, who.address);
    return row ? Response.json({ target: row }, { headers: NO_STORE }) : fail(404, 'No such webhook target, or it was already removed.');
  });
}

/** POST /{id}/test: one signed test delivery now; the receiver's status and the start of its answer. */
export async function webhookTargetTest(s: ExceptionService, rawId: string): Promise<Response> {
  const id = parseId(rawId, 'Webhook target id');
  if (!id.ok) return id.response;
  return guarded(async () => {
    const result = await s.testWebhookTarget(id.value);
    return result ? Response.json(result, { headers: NO_STORE }) : fail(404, 'No such webhook target, or it was removed.');
  });
}
