'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DelayThresholds } from '@/lib/model';
import { AppHeader } from '@/components/app-header';
import { FleetMap } from '@/components/map/fleet-map';
import { busTrackQuery, historyFleetQuery, routesQuery } from '@/lib/client/queries';
import { useDisplayZone } from '@/lib/client/use-display-zone';
import { useBusPlacements } from '@/lib/client/use-bus-placements';
import { useLiveFeed } from '@/lib/client/use-live-feed';
import { useNow } from '@/lib/client/use-now';
import { agencyZoneOf } from '@/lib/view/display-zone';
import { useTheme } from '@/lib/client/use-theme';
import { formatClock, formatDateTime } from '@/lib/view/format';
import { emptyMoment, momentVehicles, parseReplayUrl, REPLAY_HALF_WINDOW_MS, REPLAY_SPEEDS, REPLAY_STEP_MS, serializeReplayUrl, snapToStep, type EmptyMoment, type ReplayUrlState } from '@/lib/view/replay';
import { parseZonedInput, zonedInputValue } from '@/lib/view/zoned-input';
import { routeLabel } from '@/lib/view/trips';

const control = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900';
const button =
  'rounded border border-slate-300 bg-white px-3 py-1 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 aria-pressed:border-blue-700 aria-pressed:bg-blue-700 aria-pressed:text-white dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800';

function useReplayUrl(): [ReplayUrlState, (patch: Partial<ReplayUrlState>) => void] {
  const params = useSearchParams();
  const state = useMemo(() => parseReplayUrl(params), [params]);
  const update = useCallback((patch: Partial<ReplayUrlState>) => {
    const next = { ...parseReplayUrl(new URLSearchParams(window.location.search)), ...patch };
    const qs = serializeReplayUrl(next);
    window.history.replaceState(null, '', qs ? `?${qs}` : window.location.pathname);
  }, []);
  return [state, update];
}

interface Props {
  staleAfterS: number;
  styleUrl: string | null;
  styleUrlDark: string | null;
  thresholds: DelayThresholds;
}

/**
 * Fleet playback: the fleet as Fleetmap knew it at a past moment (each bus at its last fix fetched before then,
 * drawn as old as it was), played at 1×, 10× or 60× over a two-hour window, filtered by route, with the selected
 * bus's track for the window. The URL carries the moment, so a link opens the same picture.
 */
export function ReplayView({ staleAfterS, styleUrl, styleUrlDark, thresholds }: Props) {
  const [url, updateUrl] = useReplayUrl();
  const clientNow = useNow();
  // The agency's zone comes with the live snapshot; the replay's times read in it (or the browser's, as switched).
  const agencyZone = agencyZoneOf(useLiveFeed().snapshot?.health);
  const zone = useDisplayZone(agencyZone);
  const zoneWord = zone.kind === 'agency' ? 'agency time' : 'your time';
  const [theme] = useTheme();
  const [playing, setPlaying] = useState(false);
  // The moment the window is centred on: the linked one, else half an hour ago (chosen once the clock ticks).
  const [anchor, setAnchor] = useState<number | null>(url.at);
  if (anchor === null && clientNow !== 0) setAnchor(snapToStep(clientNow - 30 * 60_000));
  const at = url.at ?? anchor;
  const windowStart = anchor === null ? 0 : anchor - REPLAY_HALF_WINDOW_MS;
  const windowEnd = anchor === null ? 0 : Math.min(anchor + REPLAY_HALF_WINDOW_MS, clientNow || anchor);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const current = parseReplayUrl(new URLSearchParams(window.location.search));
      const from = current.at ?? anchor;
      if (from === null) return;
      const next = from + current.speed * 1_000;
      if (next >= windowEnd) {
        updateUrl({ at: windowEnd });
        setPlaying(false);
      } else updateUrl({ at: next });
    }, 1_000);
    return () => clearInterval(timer);
  }, [playing, anchor, windowEnd, updateUrl]);

  const moment = useQuery({ ...historyFleetQuery(snapToStep(at ?? 0), url.routeId), enabled: at !== null, placeholderData: keepPreviousData });
  const track = useQuery({ ...busTrackQuery(url.busId ?? 0, windowStart, Math.max(windowEnd, windowStart + 1)), enabled: url.busId !== null && anchor !== null });
  const routes = useQuery(routesQuery());
  const vehicles = useMemo(() => (moment.data ? momentVehicles(moment.data, thresholds) : []), [moment.data, thresholds]);
  const shownAt = moment.data?.at ?? null;
  // A replay shows what Fleetmap knew then: the recorded fixes, never estimates.
  const { placements, placedAt } = useBusPlacements(vehicles, shownAt ?? 0, staleAfterS, 'fixes', shownAt);
  const trail = useMemo(() => (track.data && at !== null ? track.data.fixes.filter((f) => f.fetchedAt <= at) : null), [track.data, at]);

  return (
    <div className="flex h-dvh flex-col">
      <AppHeader
        title="Replay"
        agencyZone={agencyZone}
        current="replay"
        status={
          <p aria-label="Moment shown" className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            {shownAt !== null ? (
              <>
                <span data-testid="replay-moment">{formatDateTime(shownAt, zone.zone)}</span> ({zoneWord}) · <span aria-label="Buses shown">{vehicles.length}</span> buses as Fleetmap knew them then
                {moment.isFetching ? ' · loading' : ''}
              </>
            ) : moment.error ? (
              `The history cannot be read: ${moment.error.message}`
            ) : (
              'Loading…'
            )}
          </p>
        }
      />
      <section aria-label="Playback controls" className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-3 py-2 text-sm dark:border-slate-800">
        <label className="flex items-center gap-2">
          <span className="text-slate-600 dark:text-slate-300">Moment</span>
          <input
            type="datetime-local"
            className={control}
            value={at !== null ? zonedInputValue(at, zone.zone) : ''}
            onChange={(e) => {
              const ms = parseZonedInput(e.target.value, zone.zone);
              if (ms === null) return;
              setAnchor(ms);
              updateUrl({ at: ms });
            }}
          />
          <span className="text-xs text-slate-500 dark:text-slate-400">{zoneWord}</span>
        </label>
        <button type="button" className={button} aria-pressed={playing} disabled={at === null} onClick={() => setPlaying(!playing)}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <div role="group" aria-label="Speed" className="flex gap-1">
          {REPLAY_SPEEDS.map((s) => (
            <button key={s} type="button" className={button} aria-pressed={url.speed === s} onClick={() => updateUrl({ speed: s })}>
              {s}×
            </button>
          ))}
        </div>
        <label className="flex min-w-64 flex-1 items-center gap-2">
          <span className="text-slate-600 dark:text-slate-300">Time</span>
          <input
            type="range"
            className="flex-1"
            aria-label="Time in the window"
            aria-valuetext={at !== null ? formatClock(at, true, zone.zone) : undefined}
            min={windowStart}
            max={windowEnd}
            step={REPLAY_STEP_MS}
            value={at ?? windowStart}
            disabled={anchor === null}
            onChange={(e) => updateUrl({ at: Number(e.target.value) })}
          />
          <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
            {anchor !== null ? `${formatClock(windowStart, false, zone.zone)}–${formatClock(windowEnd, false, zone.zone)}` : ''}
          </span>
        </label>
        <label className="flex items-center gap-2">
          <span className="text-slate-600 dark:text-slate-300">Route</span>
          <select className={control} value={url.routeId ?? ''} onChange={(e) => updateUrl({ routeId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">All routes</option>
            {(routes.data?.routes ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {routeLabel({ routeId: r.id, routeCode: r.code, routeName: r.name })}
              </option>
            ))}
          </select>
        </label>
        {url.busId !== null && (
          <p className="text-xs text-slate-600 dark:text-slate-300">
            Bus {url.busId}: {track.data ? `${trail?.length ?? 0} of ${track.data.fixes.length} positions in the window so far` : 'loading its track'}{' '}
            <button type="button" className="underline" onClick={() => updateUrl({ busId: null })}>
              clear
            </button>
          </p>
        )}
      </section>
      <main className="relative min-h-0 flex-1">
        {moment.data && vehicles.length === 0 && (
          <EmptyMomentNotice
            empty={emptyMoment(moment.data.at, moment.data.recorded, url.routeId !== null)}
            recorded={moment.data.recorded}
            format={(ms) => formatDateTime(ms, zone.zone)}
            onShow={(ms) => {
              setPlaying(false);
              setAnchor(ms);
              updateUrl({ at: ms });
            }}
          />
        )}
        <FleetMap
          frameNetworkWhenEmpty
          className="absolute inset-0"
          vehicles={vehicles}
          placements={placements}
          placedAt={placedAt}
          now={placedAt}
          staleAfterS={staleAfterS}
          selectedBusId={url.busId}
          onSelectBus={(busId) => updateUrl({ busId })}
          theme={theme}
          styleUrl={styleUrl}
          styleUrlDark={styleUrlDark}
          trail={trail}
        />
      </main>
    </div>
  );
}

const EMPTY_TEXT: Record<EmptyMoment['reason'], string> = {
  'nothing-recorded': 'Nothing is recorded yet: Fleetmap keeps what it hears from the moment it starts, and a replay shows that.',
  'before-recording': 'Nothing was recorded this early.',
  'after-recording': 'Nothing was recorded after this moment yet.',
  'no-bus-on-route': 'No bus of this route was recorded in the day before this moment.',
  gap: 'No bus was recorded in the day before this moment.',
};

/** Over the map when a moment has no bus: why, what the recording spans, and a moment inside it. */
function EmptyMomentNotice({ empty, recorded, format, onShow }: { empty: EmptyMoment; recorded: { from: number; to: number } | null; format: (ms: number) => string; onShow: (ms: number) => void }) {
  return (
    <div role="status" className="absolute top-3 left-1/2 z-10 max-w-lg -translate-x-1/2 rounded border border-slate-300 bg-white/95 px-3 py-2 text-sm shadow dark:border-slate-600 dark:bg-slate-900/95">
      <p>{EMPTY_TEXT[empty.reason]}</p>
      {recorded && (
        <p className="text-slate-600 dark:text-slate-300">
          Recorded: {format(recorded.from)} to {format(recorded.to)}.
        </p>
      )}
      {empty.offer !== null && (
        <button type="button" className={`${button} mt-1`} onClick={() => onShow(empty.offer!)}>
          Show {format(empty.offer)}
        </button>
      )}
    </div>
  );
}
