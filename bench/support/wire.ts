// One GET read as it comes off the wire (no decompression), for sizes the browser would transfer.
import { request } from 'node:http';

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Body bytes as transferred (compressed when the server compressed them). */
  bytes: number;
}

export function getOnTheWire(url: string, headers: Record<string, string>): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
