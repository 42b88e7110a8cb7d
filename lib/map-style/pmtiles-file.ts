import 'server-only';
// Serves the one PMTiles archive named by MAP_PMTILES over HTTP byte ranges, the way MapLibre's `pmtiles://`
// protocol reads it: a 16 KB header-and-root-directory read, then one range per tile. The route that calls this
// has no path parameter, so no request can name another file; only the configured path is ever opened.
import { closeSync, createReadStream, openSync, readSync, statSync, type Stats } from 'node:fs';
import { Readable } from 'node:stream';

const MAGIC = 'PMTiles';
const SPEC_VERSION = 3;
// The archive only changes when an operator replaces the file, which changes its ETag; MapLibre's reader notices
// a new ETag and starts over. Five minutes keeps a reload from re-fetching every tile and a replacement visible soon.
const CACHE_CONTROL = 'public, max-age=300';

/** Why the file at `path` cannot be served, as a sentence for the start-up report; null when it can. */
export function pmtilesFileProblem(path: string): string | null {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (err) {
    return `MAP_PMTILES: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (!stats.isFile()) return `MAP_PMTILES: ${path} is not a file`;
  const head = Buffer.alloc(8);
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 8, 0);
  } catch (err) {
    return `MAP_PMTILES: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (head.subarray(0, 7).toString('latin1') !== MAGIC) return `MAP_PMTILES: ${path} is not a PMTiles archive (no "PMTiles" magic at its start)`;
  if (head[7] !== SPEC_VERSION) return `MAP_PMTILES: ${path} is PMTiles version ${head[7]}; this app reads version ${SPEC_VERSION} (convert it with \`pmtiles convert\`)`;
  return null;
}

/** A strong validator from size and modification time: the file is replaced whole, never edited in place. */
function etagOf(stats: Stats): string {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

export type ByteRange = { start: number; end: number };

/**
 * A `Range` header against a file of `size` bytes: the inclusive range to send, 'unsatisfiable' (416), or null
 * to ignore it and send the whole file (a header that is not a valid bytes range, as RFC 9110 allows). Several
 * ranges are answered as the one range that covers them all (RFC 9110 §14.2 lets a server coalesce), so a
 * response is never multipart.
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === null) return null;
  const m = /^bytes=(.+)$/i.exec(header.trim());
  if (!m) return null;
  const ranges: ByteRange[] = [];
  for (const spec of m[1]!.split(',')) {
    const r = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return null;
    if (r[1] === '') {
      const suffix = Number(r[2]);
      if (suffix > 0 && size > 0) ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
    if (r[2] !== '' && Number(r[2]) < start) return null;
    if (start < size) ranges.push({ start, end });
  }
  if (ranges.length === 0) return 'unsatisfiable';
  return { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) };
}

/** If-Range: the range applies only while the client's copy is the current one (strong ETag or exact date). */
function ifRangeHolds(ifRange: string | null, etag: string, lastModified: string): boolean {
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}

function errorResponse(status: number, message: string): Response {
  return Response.json({ error: { status, message } }, { status, headers: { 'Cache-Control': 'no-store' } });
}

/**
 * The response to a GET or HEAD of the archive at `path`: 200 with the whole file, 206 with one range, 304 when
 * If-None-Match names the current ETag, 416 for a range past the end, 503 when the file has gone.
 */
export async function pmtilesResponse(request: Request, path: string): Promise<Response> {
  let stats: Stats;
  try {
    stats = statSync(path);
    if (!stats.isFile()) throw new Error('not a file');
  } catch {
    // The path is the operator's, not the client's: it stays in the server's own start-up report.
    return errorResponse(503, 'The PMTiles basemap file is not readable on the server.');
  }
  const etag = etagOf(stats);
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000).toUTCString();
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': lastModified,
    'Cache-Control': CACHE_CONTROL,
    // Not a compressible type: the tiles inside are compressed already, and a proxy must not re-encode a range.
    'Content-Type': 'application/octet-stream',
  });
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }

  const range = ifRangeHolds(request.headers.get('if-range'), etag, lastModified) ? parseRange(request.headers.get('range'), stats.size) : null;
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${stats.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: stats.size - 1 };
  const length = Math.max(0, end - start + 1);
  headers.set('Content-Length', String(length));
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${stats.size}`);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
