// How an answer's bytes go on the wire: the encoding a request accepts, and the body compressed in it. Shared by
// /api/live (lib/http/live-answer.ts) and the GTFS-Realtime feeds (lib/gtfs-rt/service.ts), so both compress alike;
// below the HTTP edge, so that a service may use it.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

// Brotli at 11 costs about a second of CPU for a 2,000-bus snapshot; 5 is within a few per cent of its size
// at a fraction of gzip -9's time, and the snapshot changes every second.
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** A body in an encoding (the GTFS-Realtime feeds compress theirs with the same settings). */
export function encodeBody(identity: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'identity') return identity;
  if (encoding === 'br') return brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } });
  return gzipSync(identity, { level: GZIP_LEVEL });
}

/** Accept-Encoding values seen, with their choice: browsers send a handful of distinct ones. */
const chosen = new Map<string, Encoding>();
const CHOSEN_MAX = 64;

/** The best encoding the request accepts: br, then gzip, else none (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  let e = chosen.get(acceptEncoding);
  if (e === undefined) {
    e = parseAcceptEncoding(acceptEncoding);
    if (chosen.size >= CHOSEN_MAX) chosen.clear();
    chosen.set(acceptEncoding, e);
  }
  return e;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}
