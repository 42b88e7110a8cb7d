import 'server-only';
import type { z } from 'zod';
import { logger } from '@/lib/log';
import { errorResponse, jsonResponse, type Parsed } from './responses';
import { describeStoreError } from '@/lib/history/recorder';
import { queryObject } from './history-params';
import type { Store } from '@/lib/history/store';

// The edge of the history API: a handler parses its query (a 400 naming the parameter), then reads the store;
// a store that cannot be reached is a 503 with the reason, never a stack trace.

export function parseQuery<S extends z.ZodType>(request: Request, schema: S): Parsed<z.output<S>> {
  const r = schema.safeParse(queryObject(new URL(request.url)));
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, response: errorResponse({ status: 400, message: r.error.issues[0]?.message ?? 'The query is invalid', correlationId: null }) };
}

/** Runs a read on the process's store; its answer, or a 503 saying why the history cannot answer now. */
export async function fromStore(open: () => Promise<Store>, read: (store: Store) => Promise<unknown>): Promise<Response> {
  let store: Store;
  try {
    store = await open();
  } catch (e) {
    return errorResponse({ status: 503, message: `The history store is not available (${describeStoreError(e)}).`, correlationId: null });
  }
  try {
    return jsonResponse(await read(store));
  } catch (e) {
    logger().warn({ reason: describeStoreError(e) }, 'history read failed');
    return errorResponse({ status: 503, message: `The history store did not answer (${describeStoreError(e)}).`, correlationId: null });
  }
}
