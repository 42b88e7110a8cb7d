import { openApiDocument } from '@/lib/openapi/document';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The OpenAPI 3.1 description of this API (lib/openapi), built once per process. */
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { 'Cache-Control': 'no-cache' } });
}
