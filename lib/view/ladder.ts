// The route ladder's geometry (after MBTA Skate's ladder): each direction is one vertical line with its stops
// evenly spaced in stop order, each bus at its route-snapped progress (/api/headways, from lib/estimate) mapped
// between the two stops it lies between, buses at one place spread into lanes, headways written beside the line.
// Pure: the ladder component, the wall and the benchmark lay out with the same code.
import type { DirectionHeadways, EpochMs, HeadwayBus, HeadwayGap, LadderStop, ProgressMotion } from '@/lib/model';

export interface LadderGeometry {
  /** Pixels between consecutive stops. */
  stopGapPx: number;
  /** Space above the first stop and below the last one (the layover boxes sit there). */
  padPx: number;
  /** Two buses closer than this (vertically) go into different lanes. */
  laneGapPx: number;
  /** At most this many stop names are written; every stop stays a place (a tick) on the line. */
  maxLabels: number;
}

export const LADDER_GEOMETRY: LadderGeometry = { stopGapPx: 22, padPx: 44, laneGapPx: 18, maxLabels: 24 };

/** The fractional stop index of `m` metres along the direction (stop k at index k, linear between stops). */
export function stopIndexAt(stops: readonly Pick<LadderStop, 'm'>[], m: number): number {
  const n = stops.length;
  if (n === 0) return 0;
  if (m <= stops[0]!.m) return 0;
  if (m >= stops[n - 1]!.m) return n - 1;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (stops[mid]!.m <= m) lo = mid;
    else hi = mid;
  }
  const span = stops[hi]!.m - stops[lo]!.m;
  return lo + (span > 0 ? (m - stops[lo]!.m) / span : 0);
}

/** Which stops get their name written: every `stride`-th, and always the first and the last. */
export function labelledStops(n: number, maxLabels: number): Set<number> {
  const stride = Math.max(1, Math.ceil(n / Math.max(2, maxLabels)));
  const out = new Set<number>();
  let last = 0;
  for (let i = 0; i < n; i += stride) out.add((last = i));
  if (n > 1 && last !== n - 1) {
    // The last stop's name must not crowd the one before it.
    if (last !== 0 && n - 1 - last < stride / 2) out.delete(last);
    out.add(n - 1);
  }
  return out;
}

/** A bus's progress at `t`, moved along its motion since the answer (never past its motion's end). */
export function progressAtTime(bus: { progressM: number | null; motion: ProgressMotion | null }, t: EpochMs): number | null {
  const m = bus.motion;
  if (!m) return bus.progressM;
  return Math.min(m.toM, m.fromM + (m.speedMps * Math.max(0, t - m.fromAt)) / 1000);
}

/**
 * How far behind where a bus was drawn a new answer may place it and still be held: an estimate's own error (a new
 * fix a little behind the advanced estimate, a dwell the estimate ran through). Further back, the answer corrects
 * the place drawn (a fix once snapped to another leg of the route), and the bus moves back to it: held there, it
 * would stand ahead of buses it is behind for as long as its trip lasts.
 */
export const HOLD_BACK_M = 200;

/**
 * What the ladder last drew for each bus on its trip: a new answer that places a bus a little behind where it was
 * drawn holds it there until the bus passes, so no bus jumps back for an estimate's wobble.
 */
export class ForwardOnly {
  private drawn = new Map<number, { tripId: number; m: number }>();

  hold(busId: number, tripId: number, m: number): number {
    const last = this.drawn.get(busId);
    const shown = last && last.tripId === tripId && m < last.m && last.m - m <= HOLD_BACK_M ? last.m : m;
    this.drawn.set(busId, { tripId, m: shown });
    return shown;
  }
}

/**
 * Lanes for items at vertical places `y`: each goes into the first lane whose last item is at least `gap` away,
 * so buses at the same place sit side by side, never on top of each other (Skate's putIntoLanes).
 */
export function putIntoLanes<T extends { y: number }>(items: readonly T[], gap: number): Array<T & { lane: number }> {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  const laneEnds: number[] = [];
  return sorted.map((it) => {
    let lane = laneEnds.findIndex((end) => it.y - end >= gap);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(it.y);
    } else laneEnds[lane] = it.y;
    return { ...it, lane };
  });
}

export interface LadderBusMark {
  bus: HeadwayBus;
  /** Where it is drawn, metres along the path (its progress now, held by ForwardOnly). */
  m: number;
  y: number;
  lane: number;
  /** Where the timetable puts a late bus (its dashed line runs to it). */
  scheduledY: number | null;
}

export interface LadderGhostMark {
  ghost: DirectionHeadways['ghosts'][number];
  y: number;
  lane: number;
}

export interface LadderGapMark {
  gap: HeadwayGap;
  /** Midway between the two buses. */
  y: number;
}

export interface DirectionLayout {
  /** Height of the direction's column, pads included. */
  heightPx: number;
  stops: Array<{ stop: LadderStop; y: number; labelled: boolean }>;
  buses: LadderBusMark[];
  ghosts: LadderGhostMark[];
  gaps: LadderGapMark[];
  lanes: number;
  /** The layover boxes: `start` at the direction's first stop, `end` at its last. */
  layoverStart: HeadwayBus[];
  layoverEnd: HeadwayBus[];
  /** y of the first and the last stop. */
  startY: number;
  endY: number;
}

/**
 * The direction's column at `t`: progress runs down the column (`down`, the outbound side) or up it (the inbound
 * side, so the two directions of a street face each other as on Skate's ladder). `hold` keeps buses from going back.
 */
export function layoutDirection(d: DirectionHeadways, t: EpochMs, o: { down: boolean; geometry?: LadderGeometry; hold?: ForwardOnly }): DirectionLayout {
  const g = o.geometry ?? LADDER_GEOMETRY;
  const n = d.stops.length;
  const spanPx = Math.max(0, n - 1) * g.stopGapPx;
  const heightPx = spanPx + 2 * g.padPx;
  const yOfIndex = (i: number) => (o.down ? g.padPx + i * g.stopGapPx : g.padPx + spanPx - i * g.stopGapPx);
  const yOf = (m: number) => yOfIndex(stopIndexAt(d.stops, m));
  const labelled = labelledStops(n, g.maxLabels);
  const stops = d.stops.map((stop, i) => ({ stop, y: yOfIndex(i), labelled: labelled.has(i) }));

  const placed: Array<{ y: number; kind: 'bus'; bus: HeadwayBus; m: number } | { y: number; kind: 'ghost'; ghost: DirectionHeadways['ghosts'][number] }> = [];
  const yByTrip = new Map<number, number>();
  for (const bus of d.buses) {
    const at = progressAtTime(bus, t);
    if (at === null) continue;
    const m = o.hold ? o.hold.hold(bus.busId, bus.tripId, at) : at;
    const y = yOf(m);
    yByTrip.set(bus.tripId, y);
    placed.push({ y, kind: 'bus', bus, m });
  }
  for (const ghost of d.ghosts) if (ghost.scheduledM !== null) placed.push({ y: yOf(ghost.scheduledM), kind: 'ghost', ghost });
  const laned = putIntoLanes(placed, g.laneGapPx);
  const buses: LadderBusMark[] = [];
  const ghosts: LadderGhostMark[] = [];
  let lanes = 0;
  for (const p of laned) {
    lanes = Math.max(lanes, p.lane + 1);
    if (p.kind === 'bus') {
      const late = p.bus.delayClass === 'late' && p.bus.scheduledM !== null;
      buses.push({ bus: p.bus, m: p.m, y: p.y, lane: p.lane, scheduledY: late ? yOf(p.bus.scheduledM!) : null });
    } else ghosts.push({ ghost: p.ghost, y: p.y, lane: p.lane });
  }
  const gaps: LadderGapMark[] = [];
  for (const gap of d.gaps) {
    const a = yByTrip.get(gap.leaderTripId);
    const b = yByTrip.get(gap.followerTripId);
    if (a !== undefined && b !== undefined) gaps.push({ gap, y: (a + b) / 2 });
  }
  return {
    heightPx,
    stops,
    buses,
    ghosts,
    gaps,
    lanes,
    layoverStart: d.layover.filter((b) => b.layover === 'start'),
    layoverEnd: d.layover.filter((b) => b.layover === 'end'),
    startY: yOfIndex(0),
    endY: yOfIndex(Math.max(0, n - 1)),
  };
}

/** A column with more marks than this draws only what is near the screen (visibleBand). */
export const VIRTUALIZE_AFTER_MARKS = 60;

/** Pixels of a column, top and bottom, in its own coordinates. */
export interface Band {
  top: number;
  bottom: number;
}

/**
 * The column's marks within `band` (the part of it on screen, widened by a screen above and below): stops, buses,
 * ghosts and gaps outside it are not drawn. A late bus's dashed line stays when either of its ends is in the band.
 * Columns with few marks are drawn whole (null band).
 */
export function visibleBand(layout: DirectionLayout, band: Band | null): DirectionLayout {
  if (band === null || layout.buses.length + layout.ghosts.length <= VIRTUALIZE_AFTER_MARKS) return layout;
  const inBand = (y: number) => y >= band.top && y <= band.bottom;
  return {
    ...layout,
    stops: layout.stops.filter((s) => inBand(s.y)),
    buses: layout.buses.filter((b) => inBand(b.y) || (b.scheduledY !== null && inBand(b.scheduledY))),
    ghosts: layout.ghosts.filter((g) => inBand(g.y)),
    gaps: layout.gaps.filter((g) => inBand(g.y)),
  };
}
