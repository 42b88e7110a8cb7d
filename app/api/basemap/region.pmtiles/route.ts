import { readMapStyleConfig } from '@/lib/map-style/config';
import { pmtilesResponse } from '@/lib/map-style/pmtiles-file';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// The self-hosted basemap (MAP_PMTILES), answered in byte ranges. A route handler rather than a file under
// public/: the archive lives wherever the operator keeps it (often gigabytes, outside the build), and only this
// one path, with no parameter in it, ever reaches the file system.
async function serve(request: Request): Promise<Response> {
  const cfg = readMapStyleConfig();
  const path = cfg.ok ? cfg.config.pmtiles : null;
  if (path === null) {
    return Response.json({ error: { status: 404, message: 'No PMTiles basemap is configured (MAP_PMTILES).' } }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  return pmtilesResponse(request, path);
}

export const GET = serve;
export const HEAD = serve;
