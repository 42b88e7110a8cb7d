'use client';
import { useState } from 'react';
import { serverNow, type SnapshotClock } from '@/lib/placement/ages';
import { useNow } from './use-now';

/**
 * The server's current time as this browser can know it: the snapshot's generatedAt plus the time since
 * the browser first saw that stamp. A re-served snapshot (same generatedAt, e.g. an ETag hit) keeps its
 * first receipt time, so its data keeps ageing. The receipt time comes from the one-second ticker and so
 * may be up to a second early: ages err on the old side, never on the fresh side.
 */
export function useServerNow(generatedAt: number | null | undefined): { now: number; clock: SnapshotClock | null } {
  const clientNow = useNow();
  const [clock, setClock] = useState<SnapshotClock | null>(null);
  const seen = generatedAt ?? null;
  const needsUpdate = seen !== null && clientNow !== 0 && (clock === null || clock.generatedAt !== seen);
  if (needsUpdate) setClock({ generatedAt: seen, receivedAt: clientNow });
  const current = needsUpdate ? { generatedAt: seen, receivedAt: clientNow } : clock;
  return { now: current ? serverNow(current, clientNow) : 0, clock: current };
}
