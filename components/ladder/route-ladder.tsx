'use client';
// One route's ladder: its directions side by side, each a vertical line of stops with its buses, ghosts, headways
// and layover boxes (lib/view/ladder.ts lays them out). Buses are drawn as the map draws each basis: a fix a filled
// disc, an estimate from a fix a dot in a ring, an estimate from the schedule a dashed hollow ring, faded when stale.
import { useRef, type KeyboardEvent } from 'react';
import type { DirectionHeadways, EpochMs, HeadwayBus, HeadwayClass, RouteHeadways } from '@/lib/model';
import type { Theme } from '@/lib/theme/theme';
import { DELAY_COLORS, DELAY_LABELS } from '@/lib/view/delay-palette';
import { etaWords } from '@/lib/view/eta';
import { formatDelay, formatDuration } from '@/lib/view/format';
import { layoutDirection, LADDER_GEOMETRY, visibleBand, type ForwardOnly, type LadderGeometry } from '@/lib/view/ladder';
import { useScreenBand } from './use-screen-band';

const LABEL_W = 150;
const LANE_W = 84;
const GAP_W = 84;
const BUS_R = 6;

export const GAP_COLORS: Record<Theme, Record<HeadwayClass, string>> = {
  light: { bunched: '#B3261E', gapped: '#0B57A4', regular: '#475569', unknown: '#64748B' },
  dark: { bunched: '#FF8A80', gapped: '#8AB4F8', regular: '#CBD5E1', unknown: '#94A3B8' },
};

const LINE = { light: '#94A3B8', dark: '#64748B' } as const;
const TEXT = { light: '#0F172A', dark: '#E2E8F0' } as const;
const MUTED = { light: '#475569', dark: '#94A3B8' } as const;
const PALE = { light: '#FFFFFF', dark: '#0F172A' } as const;

const BASIS_WORDS: Record<HeadwayBus['basis'], string> = { fix: 'at its last fix', 'gps-estimate': 'estimated from a fix', 'schedule-estimate': 'estimated from the schedule' };
const GAP_WORDS: Record<HeadwayClass, string> = { bunched: 'bunched', gapped: 'gapped', regular: 'regular', unknown: 'no scheduled headway' };

export function busAge(bus: HeadwayBus, now: EpochMs): string {
  return bus.gpsAt === null ? 'no fix' : formatDuration((now - bus.gpsAt) / 1000);
}

/** "next stop 86 St in 2–4 min": the trip's next stop and its predicted arrival, or null without a prediction. */
export function nextStopWords(bus: HeadwayBus, now: EpochMs): string | null {
  return bus.next ? `next stop ${bus.next.stopName} ${etaWords(bus.next.earliestAt, bus.next.latestAt, now)}` : null;
}

function busDescription(bus: HeadwayBus, now: EpochMs): string {
  const delay = bus.delayMinutes === null ? DELAY_LABELS[bus.delayClass].toLowerCase() : `${formatDelay(bus.delayMinutes)} (${DELAY_LABELS[bus.delayClass].toLowerCase()})`;
  const age = bus.gpsAt === null ? 'no fix' : `fix ${busAge(bus, now)} old`;
  // The name starts with what is written beside the mark (its label and age), as axe's label-content-name-mismatch asks.
  const next = nextStopWords(bus, now);
  return `${bus.label} ${busAge(bus, now)}: bus on trip ${bus.tripId}, ${delay}, ${BASIS_WORDS[bus.basis]}, ${age}${bus.stale ? ', stale' : ''}${next ? `, ${next}` : ''}`;
}

/** The mark of a bus by its basis, centred on 0,0. */
export function BusGlyph({ basis, color, theme, stale }: { basis: HeadwayBus['basis']; color: string; theme: Theme; stale: boolean }) {
  const opacity = stale ? 0.4 : 1;
  if (basis === 'fix') return <circle r={BUS_R} fill={color} stroke={PALE[theme]} strokeWidth={1.5} opacity={opacity} />;
  if (basis === 'gps-estimate')
    return (
      <g opacity={opacity}>
        <circle r={BUS_R} fill={PALE[theme]} stroke={color} strokeWidth={2.5} />
        <circle r={2.2} fill={color} />
      </g>
    );
  return <circle r={BUS_R} fill="none" stroke={color} strokeWidth={2.5} strokeDasharray="3 2.4" opacity={opacity} />;
}

function onItemKey(e: KeyboardEvent<SVGGElement>, select: () => void) {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    select();
    return;
  }
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
  // Up and down move along the direction's line, in the order the items are drawn top to bottom.
  e.preventDefault();
  const svg = e.currentTarget.ownerSVGElement;
  if (!svg) return;
  const items = [...svg.querySelectorAll<SVGGElement>('[data-ladder-item]')].sort((a, b) => Number(a.dataset.y) - Number(b.dataset.y));
  const i = items.indexOf(e.currentTarget);
  const next = e.key === 'Home' ? items[0] : e.key === 'End' ? items[items.length - 1] : items[i + (e.key === 'ArrowDown' ? 1 : -1)];
  next?.focus();
}

interface DirectionProps {
  route: RouteHeadways;
  d: DirectionHeadways;
  down: boolean;
  now: EpochMs;
  theme: Theme;
  selectedTripId: number | null;
  onSelect: (tripId: number) => void;
  hold: ForwardOnly;
  geometry: LadderGeometry;
}

function LayoverBox({ buses, y, x, width, label, theme, now, selectedTripId, onSelect }: { buses: HeadwayBus[]; y: number; x: number; width: number; label: string; theme: Theme; now: EpochMs; selectedTripId: number | null; onSelect: (tripId: number) => void }) {
  if (buses.length === 0) return null;
  const shown = buses.slice(0, Math.max(1, Math.floor((width - 70) / 56)));
  return (
    <g>
      <rect x={x} y={y} width={width} height={26} rx={5} fill="none" stroke={LINE[theme]} strokeDasharray="4 3" />
      <text x={x + 6} y={y + 17} fontSize={10} fill={MUTED[theme]}>
        {label}
      </text>
      {shown.map((b, i) => (
        <g
          key={b.busId}
          role="button"
          tabIndex={0}
          aria-label={`${busDescription(b, now)}, laying over at the terminal`}
          aria-pressed={selectedTripId === b.tripId}
          data-ladder-item=""
          data-y={y}
          transform={`translate(${x + 62 + i * 56}, ${y + 13})`}
          className="cursor-pointer focus-visible:outline-2 focus-visible:outline-blue-600"
          onClick={() => onSelect(b.tripId)}
          onKeyDown={(e) => onItemKey(e, () => onSelect(b.tripId))}
        >
          <title>{`${busDescription(b, now)}, laying over`}</title>
          <BusGlyph basis={b.basis} color={DELAY_COLORS[theme][b.delayClass]} theme={theme} stale={b.stale} />
          <text x={9} y={4} fontSize={10} fill={TEXT[theme]}>
            {b.label}
          </text>
        </g>
      ))}
      {buses.length > shown.length && (
        <text x={x + width - 4} y={y + 17} fontSize={10} textAnchor="end" fill={MUTED[theme]}>
          +{buses.length - shown.length}
        </text>
      )}
    </g>
  );
}

function DirectionLadder({ route, d, down, now, theme, selectedTripId, onSelect, hold, geometry }: DirectionProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  // A long column (10,000 buses: dozens a direction) draws only what is near the screen.
  const layout = visibleBand(layoutDirection(d, now, { down, geometry, hold }), useScreenBand(svgRef));
  const lanes = Math.max(2, layout.lanes);
  const lineX = LABEL_W + 8;
  const laneX = (lane: number) => lineX + 16 + lane * LANE_W;
  const gapX = laneX(lanes) + 4;
  const width = gapX + GAP_W;
  const color = (c: HeadwayBus['delayClass']) => DELAY_COLORS[theme][c];
  const name = `${route.routeCode ?? route.routeName ?? `Route ${route.routeId}`} ${d.direction}${d.toward ? ` toward ${d.toward}` : ''}`;
  const startBoxY = down ? 8 : layout.heightPx - 34;
  const endBoxY = down ? layout.heightPx - 34 : 8;
  return (
    <figure className="shrink-0">
      <figcaption className="mb-1 text-sm font-medium">
        {d.direction === 'outbound' ? 'Outbound' : 'Inbound'}
        {d.toward && <span className="font-normal text-slate-600 dark:text-slate-400"> toward {d.toward}</span>}
        <span className="ml-2 text-xs font-normal text-slate-600 tabular-nums dark:text-slate-400">
          {d.buses.length} on the line · {d.ghosts.length} ghost{d.ghosts.length === 1 ? '' : 's'}
        </span>
      </figcaption>
      <svg ref={svgRef} width={width} height={layout.heightPx} role="group" aria-label={`Ladder of ${name}`} className="block overflow-visible">
        <line x1={lineX} x2={lineX} y1={layout.startY} y2={layout.endY} stroke={LINE[theme]} strokeWidth={3} strokeLinecap="round" />
        {layout.stops.map(({ stop, y, labelled }) => (
          <g key={stop.stopId}>
            <line x1={lineX - (labelled ? 6 : 3)} x2={lineX + (labelled ? 6 : 3)} y1={y} y2={y} stroke={LINE[theme]} strokeWidth={labelled ? 2 : 1} />
            {labelled ? (
              <text x={lineX - 10} y={y + 3.5} fontSize={10.5} textAnchor="end" fill={TEXT[theme]}>
                {stop.name.length > 24 ? `${stop.name.slice(0, 23)}…` : stop.name}
                <title>{stop.name}</title>
              </text>
            ) : (
              <title>{stop.name}</title>
            )}
          </g>
        ))}
        <LayoverBox buses={layout.layoverStart} y={startBoxY} x={lineX + 8} width={width - lineX - 12} label="Layover" theme={theme} now={now} selectedTripId={selectedTripId} onSelect={onSelect} />
        <LayoverBox buses={layout.layoverEnd} y={endBoxY} x={lineX + 8} width={width - lineX - 12} label="Arrived" theme={theme} now={now} selectedTripId={selectedTripId} onSelect={onSelect} />
        {layout.buses.map(({ bus, y, scheduledY, lane }) =>
          scheduledY === null ? null : <line key={`late-${bus.tripId}`} x1={laneX(lane)} x2={laneX(lane)} y1={y} y2={scheduledY} stroke={color('late')} strokeWidth={1.5} strokeDasharray="4 3" aria-hidden />,
        )}
        {layout.gaps.map(({ gap, y }) => (
          <text key={`gap-${gap.followerTripId}`} x={gapX} y={y + 3.5} fontSize={11} fontWeight={gap.cls === 'bunched' || gap.cls === 'gapped' ? 700 : 400} fill={GAP_COLORS[theme][gap.cls]} data-gap={gap.cls}>
            {formatDuration(gap.headwayS)}
            {gap.cls === 'bunched' ? ' bunched' : gap.cls === 'gapped' ? ' gapped' : ''}
            <title>{`Headway ${formatDuration(gap.headwayS)}${gap.scheduledS !== null ? ` against ${formatDuration(gap.scheduledS)} scheduled` : ''}: ${GAP_WORDS[gap.cls]} (pace ${gap.paceSource})`}</title>
          </text>
        ))}
        {layout.ghosts.map(({ ghost, y, lane }) => (
          <g
            key={`ghost-${ghost.tripId}`}
            role="button"
            tabIndex={0}
            aria-label={`Ghost trip ${ghost.tripId}: ${ghost.reason === 'no-bus' ? 'no bus' : `bus ${ghost.busName ?? ghost.plateNumber ?? ghost.busId} not located`}, at its scheduled place`}
            aria-pressed={selectedTripId === ghost.tripId}
            data-ladder-item=""
            data-ghost={ghost.tripId}
            data-y={y}
            className="cursor-pointer outline-none focus-visible:[&>rect.focus]:opacity-100"
            style={{ transform: `translate(${laneX(lane)}px, ${y}px)` }}
            onClick={() => onSelect(ghost.tripId)}
            onKeyDown={(e) => onItemKey(e, () => onSelect(ghost.tripId))}
          >
            <rect className="focus" x={-9} y={-9} width={80} height={18} rx={9} fill="none" stroke="#2563EB" strokeWidth={2} opacity={selectedTripId === ghost.tripId ? 1 : 0} />
            <rect x={-6} y={-6} width={12} height={12} rx={2} fill="none" stroke={MUTED[theme]} strokeWidth={1.5} strokeDasharray="2 2" transform="rotate(45)" />
            <text x={10} y={3.5} fontSize={10} fontStyle="italic" fill={MUTED[theme]}>
              ghost
            </text>
          </g>
        ))}
        {layout.buses.map(({ bus, m, y, lane }) => (
          <g
            key={`bus-${bus.busId}`}
            role="button"
            tabIndex={0}
            aria-label={busDescription(bus, now)}
            aria-pressed={selectedTripId === bus.tripId}
            data-ladder-item=""
            data-bus={bus.busId}
            data-trip={bus.tripId}
            data-y={y}
            data-m={Math.round(m)}
            className="cursor-pointer outline-none transition-transform duration-1000 ease-linear motion-reduce:transition-none focus-visible:[&>rect.focus]:opacity-100"
            style={{ transform: `translate(${laneX(lane)}px, ${y}px)` }}
            onClick={() => onSelect(bus.tripId)}
            onKeyDown={(e) => onItemKey(e, () => onSelect(bus.tripId))}
          >
            <rect className="focus" x={-10} y={-10} width={LANE_W - 4} height={20} rx={10} fill="none" stroke="#2563EB" strokeWidth={2} opacity={selectedTripId === bus.tripId ? 1 : 0} />
            <BusGlyph basis={bus.basis} color={color(bus.delayClass)} theme={theme} stale={bus.stale} />
            {/* One text node: the accessible name starts with exactly this (a tspan's leading space is lost to axe). */}
            <text x={10} y={3.5} fontSize={10.5} fill={TEXT[theme]} opacity={bus.stale ? 0.6 : 1}>
              {`${bus.label} ${busAge(bus, now)}`}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

export interface RouteLadderProps {
  route: RouteHeadways;
  now: EpochMs;
  theme: Theme;
  selectedTripId: number | null;
  onSelect: (tripId: number) => void;
  hold: ForwardOnly;
  geometry?: LadderGeometry;
}

export function RouteLadder({ route, now, theme, selectedTripId, onSelect, hold, geometry = LADDER_GEOMETRY }: RouteLadderProps) {
  const title = [route.routeCode, route.routeName].filter(Boolean).join(' · ') || `Route ${route.routeId}`;
  return (
    <section aria-label={`Route ${route.routeCode ?? route.routeId}`} className="min-w-0">
      <h2 className="mb-2 text-base font-semibold">{title}</h2>
      {route.directions.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">This route’s stops are not known yet.</p>
      ) : (
        <div className="flex gap-4">
          {route.directions.map((d, i) => (
            <DirectionLadder key={d.direction} route={route} d={d} down={i === 0} now={now} theme={theme} selectedTripId={selectedTripId} onSelect={onSelect} hold={hold} geometry={geometry} />
          ))}
        </div>
      )}
    </section>
  );
}
