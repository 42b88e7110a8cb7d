import type { NextApiRequest, NextApiResponse } from 'next';
import { ensureFeedStarted } from '@/lib/fleet';
import { liveAnswer } from '@/lib/http/live-answer';

// A Pages Router API route, not an App Router one: this one's bytes reach the client as written, so each
// snapshot version is compressed once (lib/http/live-answer.ts) instead of on every request. See the README.

export const config = { api: { bodyParser: false } };

export default function live(req: NextApiRequest, res: NextApiResponse): void {
  const answer = liveAnswer(ensureFeedStarted(), { method: req.method ?? 'GET', url: req.url ?? '/api/live', headers: req.headers });
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}
