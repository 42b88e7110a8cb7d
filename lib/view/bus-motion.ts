// Smooth motion between snapshots: each bus glides from where it is drawn now to its new fix. Pure
// functions here; the requestAnimationFrame loop lives in lib/client/use-glide.ts.
import type { LngLat } from '@/lib/geo/lon-lat';
import { distanceM } from '@/lib/geo/sphere';

export const GLIDE_MS = 1_000;
/** A jump this long is a new fix after a gap or a teleport, not motion: it is drawn at once. */
export const MAX_GLIDE_M = 500;

/**
 * Above this many moving buses a glide is skipped: every frame re-clusters the whole source in the worker,
 * and measured in headless Chromium (software GL, 2 shared cores) 10,000 buses sustained ~2 updates/s —
 * no longer a glide, just extra work. The buses then jump, as they would without motion.
 */
export const MAX_GLIDING_BUSES = 3_000;

export interface Glide {
  busId: number;
  from: LngLat;
  to: LngLat;
}

/** The buses that should glide: drawn before, moved, and not further than maxJumpM; none if too many. */
export function planGlides(drawn: ReadonlyMap<number, LngLat>, targets: ReadonlyMap<number, LngLat>, maxJumpM = MAX_GLIDE_M, maxGliding = MAX_GLIDING_BUSES): Glide[] {
  const glides: Glide[] = [];
  for (const [busId, to] of targets) {
    const from = drawn.get(busId);
    if (!from || (from[0] === to[0] && from[1] === to[1])) continue;
    if (distanceM(from[0], from[1], to[0], to[1]) > maxJumpM) continue;
    glides.push({ busId, from, to });
  }
  return glides.length > maxGliding ? [] : glides;
}

/** Ease-out: most of the movement early, so a bus never looks like it lags its fix. */
export function easeOut(t: number): number {
  const c = Math.min(1, Math.max(0, t));
  return 1 - (1 - c) ** 3;
}

/** Positions at progress t (0..1) of the glides, over the targets for every bus not gliding. */
export function positionsAt(targets: ReadonlyMap<number, LngLat>, glides: readonly Glide[], t: number): Map<number, LngLat> {
  const k = easeOut(t);
  const out = new Map(targets);
  for (const g of glides) {
    out.set(g.busId, [g.from[0] + (g.to[0] - g.from[0]) * k, g.from[1] + (g.to[1] - g.from[1]) * k]);
  }
  return out;
}
