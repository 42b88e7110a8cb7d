// How old the figures on screen are. The browser's clock may disagree with the server's, so server times are
// only compared with server times; the local clock measures only the time since the snapshot arrived.
import type { LiveSnapshot } from '@/lib/model';

/**
 * Age of the upstream data behind a snapshot, in ms: from the feed's last successful upstream answer to the
 * snapshot's generation (server clock), plus the local time since the browser received it.
 */
export function snapshotDataAgeMs(
  snapshot: Pick<LiveSnapshot, 'generatedAt'> & { health: Pick<LiveSnapshot['health'], 'lastSuccessAt'> },
  receivedAt: number,
  now: number,
): number | null {
  const last = snapshot.health.lastSuccessAt;
  if (last === null) return null;
  return Math.max(0, snapshot.generatedAt - last) + Math.max(0, now - receivedAt);
}

export function formatAge(ms: number | null): string {
  if (ms === null) return 'no data yet';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min ago`;
  return `${Math.floor(h / 24)} days ago`;
}
