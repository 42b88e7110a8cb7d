'use client';
// Ladders on a wall display (/wall?ladder=M15,M101): the same ladders as /ladder, larger, no selection.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { headwaysQuery } from '@/lib/client/queries';
import { useServerNow } from '@/lib/client/use-server-now';
import type { Theme } from '@/lib/theme/theme';
import { ForwardOnly, LADDER_GEOMETRY } from '@/lib/view/ladder';
import { RouteLadder } from './route-ladder';

const WALL_GEOMETRY = { ...LADDER_GEOMETRY, stopGapPx: 26, laneGapPx: 20, maxLabels: 18 };
const NO_SELECTION = () => {};

export function WallLadder({ routes, theme }: { routes: string[]; theme: Theme }) {
  const headways = useQuery(headwaysQuery(routes));
  const { now } = useServerNow(headways.data?.at);
  const [hold] = useState(() => new ForwardOnly());
  if (!headways.data) return <p className="p-6 text-2xl text-slate-600 dark:text-slate-400">Waiting for the ladder…</p>;
  return (
    <div className="absolute inset-0 overflow-hidden px-6 pt-28 text-base">
      {headways.data.unknownRoutes.length > 0 && <p className="mb-2 text-lg">No route named {headways.data.unknownRoutes.join(', ')}.</p>}
      <div className="flex flex-wrap gap-10">
        {headways.data.routes.map((r) => (
          <RouteLadder key={r.routeId} route={r} now={now} theme={theme} selectedTripId={null} onSelect={NO_SELECTION} hold={hold} geometry={WALL_GEOMETRY} />
        ))}
      </div>
    </div>
  );
}
