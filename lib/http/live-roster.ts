import 'server-only';
import { createHash } from 'node:crypto';
import { encodeRoster, rosterContent, type CompactRoster, type Vehicle } from '@/lib/model';

// The rosters of /api/live's compact form (`?shape=roster`, lib/model/live-roster.ts): each scope's (everyone's, or a
// wall token's routes') made from the live view it is asked with, versioned by a hash of its rows, so that every
// instance of a cluster names the same rows with the same version. A roster is made (serialised, and compressed by
// the caller's `make`) once per version, not once per snapshot version: the names of a fleet change a few times a
// day, its positions every second. The newest few of each scope are kept, so that a browser asking for the roster
// a full answer of a moment ago named still gets it after the names changed.

export interface Made<E> {
  version: string;
  /** The roster itself (the page's first paint carries it). */
  roster: CompactRoster;
  answer: E;
}

interface ScopeRosters<E> {
  /** The vehicles the newest roster was made or checked from. */
  vehicles: readonly Vehicle[];
  /** Newest first. */
  made: Made<E>[];
}

/** Whether two vehicle lists (sorted by busId) hold the same buses with the same names. */
function sameRows(a: readonly Vehicle[], b: readonly Vehicle[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x.busId !== y.busId || x.plateNumber !== y.plateNumber || x.busName !== y.busName || x.internalCode !== y.internalCode) return false;
  }
  return true;
}

export function rosterVersion(vehicles: readonly Vehicle[]): string {
  return createHash('sha256').update(rosterContent(vehicles)).digest('base64url').slice(0, 16);
}

export class Rosters<E> {
  private readonly scopes = new Map<string, ScopeRosters<E>>();

  /**
   * @param make the answer of a roster's body under its version (made once per version)
   * @param keep how many versions of one scope are kept
   * @param maxScopes how many scopes are kept at once; the least recently asked goes first
   */
  constructor(
    private readonly make: (version: string, body: string) => E,
    private readonly keep = 4,
    private readonly maxScopes = 64,
  ) {}

  /** The roster of `vehicles` (a live view's, sorted by busId) in `scope` ('' for everyone's). */
  of(scope: string, vehicles: readonly Vehicle[]): Made<E> {
    let s = this.scopes.get(scope);
    if (s) this.scopes.delete(scope);
    // Most recently asked last: the first entry is the one to drop.
    if (!s) s = { vehicles: [], made: [] };
    this.scopes.set(scope, s);
    if (this.scopes.size > this.maxScopes) this.scopes.delete(this.scopes.keys().next().value!);
    const newest = s.made[0];
    if (newest && sameRows(s.vehicles, vehicles)) {
      s.vehicles = vehicles;
      return newest;
    }
    const version = rosterVersion(vehicles);
    const made = s.made.find((m) => m.version === version) ?? this.made(version, encodeRoster(vehicles, version));
    s.vehicles = vehicles;
    s.made = [made, ...s.made.filter((m) => m !== made)].slice(0, this.keep);
    return made;
  }

  private made(version: string, roster: CompactRoster): Made<E> {
    return { version, roster, answer: this.make(version, JSON.stringify(roster)) };
  }

  /** A roster of `scope` kept under `version`, if it still is. */
  kept(scope: string, version: string): Made<E> | undefined {
    return this.scopes.get(scope)?.made.find((m) => m.version === version);
  }
}
