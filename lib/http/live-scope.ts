import 'server-only';
import { createHash } from 'node:crypto';
import { liveChanges, liveInRoutes, type LiveChanges, type LiveSnapshot } from '@/lib/model';

// /api/live for a viewer limited to some routes (a wall-display token made with `?routes=`): the snapshot holds
// only those routes' buses and trips, in full answers and in deltas alike, and its ETag is not the full one's (a
// cache or a browser never confuses the two).
//
// A delta must take the viewer's own earlier answer to this one exactly, and the feed's step changes cannot say
// whether a bus that left the routes was on them at the viewer's version (they carry new states only). So the
// limited views this process served are kept for the same window the feed keeps steps for, and a delta is the
// change from the view the viewer holds to the view now; a version not kept here (another instance served it,
// or it is too old) gets the limited view in full.

/** The routes, normalised: the same set of tokens is one scope, however it was typed or ordered. */
export function normaliseRoutes(routes: readonly string[]): string[] {
  return [...new Set(routes.map((r) => r.trim().toLowerCase()).filter(Boolean))].sort();
}

/** A short name for a scope, for ETags and answer caches (it says nothing about which routes). */
export function scopeKey(routes: readonly string[]): string {
  return createHash('sha256').update(normaliseRoutes(routes).join('\n')).digest('base64url').slice(0, 12);
}

interface ScopeHistory {
  epoch: string;
  /** Limited views by version, oldest first (Map keeps insertion order). */
  views: Map<number, LiveSnapshot>;
}

export class ScopedViews {
  private readonly scopes = new Map<string, ScopeHistory>();

  /**
   * @param recentVersions how many versions of one scope are kept (the feed's window for deltas)
   * @param maxScopes how many scopes are kept at once; the least recently asked goes first
   */
  constructor(
    private readonly recentVersions: number,
    private readonly maxScopes = 64,
  ) {}

  /** The limited view of `snapshot`, remembered for later deltas. */
  view(key: string, routes: readonly string[], snapshot: LiveSnapshot): LiveSnapshot {
    let h = this.scopes.get(key);
    if (h) this.scopes.delete(key);
    if (!h || h.epoch !== snapshot.epoch) h = { epoch: snapshot.epoch, views: new Map() };
    // Most recently asked last: the first entry is the one to drop.
    this.scopes.set(key, h);
    if (this.scopes.size > this.maxScopes) this.scopes.delete(this.scopes.keys().next().value!);
    let v = h.views.get(snapshot.version);
    if (!v) {
      v = liveInRoutes(snapshot, routes);
      h.views.set(snapshot.version, v);
      while (h.views.size > this.recentVersions) h.views.delete(h.views.keys().next().value!);
    }
    return v;
  }

  /** What changed in the limited view from `version` to `now`; null when that version is not kept. */
  changesSince(key: string, epoch: string, version: number, now: LiveSnapshot): LiveChanges | null {
    const h = this.scopes.get(key);
    if (!h || h.epoch !== epoch || epoch !== now.epoch || version > now.version) return null;
    const base = h.views.get(version);
    return base ? liveChanges(base, now) : null;
  }
}
