import 'server-only';
import { MemorySnapshotStore, RECENT_VERSIONS, type SnapshotStore, type StoredSnapshot } from '@/lib/fleet';
import { liveChanges, type Health, type LiveChanges, type LiveSnapshot } from '@/lib/model';
import type { ClusterKeys } from './config';
import type { Lease } from './lease';
import type { Redis } from './redis';

// The snapshot store of an instance among several. The leader's feed writes each version here: it is kept in
// memory (this instance serves it at once) and written to Redis by a script that first checks the fencing
// epoch and the lease, so a leader that was paused and came back cannot overwrite a newer leader's versions;
// the same script keeps the recent step changes and announces the version (PUBLISH). Followers pull the newest
// version (on the announcement, and every second since pub/sub loses messages across reconnects) with the
// step changes that lead to it, so that ETags, versions and deltas are the same on every instance.
//
// While Redis cannot be reached, this instance serves what it has under a "coordination lost" banner: a version
// of its own (the same data, the banner in its health), never sent to Redis; the next newer version from Redis
// replaces it.

const WRITE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return -1 end
local cur = redis.call('HMGET', KEYS[3], 'epoch', 'version')
if ARGV[5] == '' or cur[1] ~= ARGV[1] or tonumber(cur[2]) ~= tonumber(ARGV[3]) - 1 then redis.call('DEL', KEYS[4]) end
if ARGV[5] ~= '' then
  redis.call('RPUSH', KEYS[4], ARGV[5])
  redis.call('LTRIM', KEYS[4], -tonumber(ARGV[6]), -1)
end
redis.call('HSET', KEYS[3], 'epoch', ARGV[1], 'version', ARGV[3], 'body', ARGV[4], 'health', ARGV[8])
redis.call('PUBLISH', ARGV[7], ARGV[1] .. '-' .. ARGV[3])
return 1`;

// ARGV: the epoch and version held here. Returns {} when Redis has no snapshot, {epoch, version} when it has
// nothing newer in that epoch, else {epoch, version, body, health, step...} (health: the full one, for this
// instance's administrators and its /api/status; the body holds only the viewers') with the steps from the version held here
// when Redis still keeps them all.
const PULL = `
local s = redis.call('HMGET', KEYS[1], 'epoch', 'version', 'body', 'health')
if not s[1] then return {} end
if s[1] == ARGV[1] and tonumber(s[2]) <= tonumber(ARGV[2]) then return {s[1], s[2]} end
local out = {s[1], s[2], s[3], s[4] or ''}
if s[1] == ARGV[1] then
  local k = tonumber(s[2]) - tonumber(ARGV[2])
  if k <= tonumber(ARGV[3]) then
    for _, step in ipairs(redis.call('LRANGE', KEYS[2], -k, -1)) do out[#out + 1] = step end
  end
end
return out`;

interface Step {
  v: number;
  c: LiveChanges;
}

/** Whether (epoch, version) comes after what `cur` holds: epochs are fencing counters, compared as numbers. */
export function isNewer(epoch: string, version: number, cur: LiveSnapshot | null): boolean {
  if (!cur) return true;
  const a = Number(epoch);
  const b = Number(cur.epoch);
  if (a !== b) return a > b;
  return version > cur.version;
}

export type PullResult = 'none' | 'same' | 'new';

export class ClusterSnapshotStore implements SnapshotStore {
  private readonly memory = new MemorySnapshotStore();
  /** The newest version here is this instance's own (a coordination banner), not one from Redis. */
  private localOnly = false;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly lease: Lease,
    /** A write the fencing refused: another leader took over. */
    private readonly onFenced: (why: string) => void,
    private readonly onWritten: (ok: boolean) => void = () => {},
  ) {}

  epoch(): string {
    const leading = this.lease.validEpoch();
    if (leading !== null) return String(leading);
    return this.memory.read()?.snapshot.epoch ?? '0';
  }

  read(): StoredSnapshot | null {
    return this.memory.read();
  }

  /** The leader's version: kept only while its lease is valid and the version is of its epoch. */
  write(s: StoredSnapshot): void {
    const epoch = this.lease.validEpoch();
    const value = this.lease.value();
    if (epoch === null || value === null || s.snapshot.epoch !== String(epoch)) return;
    this.memory.write(s);
    this.localOnly = false;
    const step = s.changes ? JSON.stringify({ v: s.snapshot.version, c: s.changes } satisfies Step) : '';
    const args = [String(epoch), value, String(s.snapshot.version), s.body, step, String(RECENT_VERSIONS), this.keys.versionChannel, JSON.stringify(s.health)];
    this.writes = this.writes.then(async () => {
      try {
        const r = Number(await this.redis.eval(WRITE, { keys: [this.keys.epoch, this.keys.lease, this.keys.snapshot, this.keys.steps], arguments: args }));
        this.onWritten(true);
        if (r !== 1) this.onFenced(r === 0 ? 'a newer epoch was taken' : 'the lease is no longer ours');
      } catch {
        this.onWritten(false);
      }
    });
  }

  /** Resolves once every write sent so far has been answered (tests, a leader stepping down). */
  flushed(): Promise<void> {
    return this.writes;
  }

  changesSince(epoch: string, version: number): LiveChanges[] | null {
    return this.memory.changesSince(epoch, version);
  }

  /** A follower's look at Redis: adopts a newer version with the steps leading to it. */
  async pull(): Promise<PullResult> {
    const cur = this.memory.read();
    const heldEpoch = cur?.snapshot.epoch ?? '';
    const heldVersion = cur?.snapshot.version ?? 0;
    const r = (await this.redis.eval(PULL, { keys: [this.keys.snapshot, this.keys.steps], arguments: [heldEpoch, String(heldVersion), String(RECENT_VERSIONS)] })) as string[];
    if (r.length === 0) return 'none';
    const [epoch, versionRaw, body, healthRaw, ...stepsRaw] = r as [string, string, string | undefined, string | undefined, ...string[]];
    const version = Number(versionRaw);
    this.lease.noteEpoch(Number(epoch));
    if (body === undefined || !isNewer(epoch, version, cur?.snapshot ?? null)) return 'same';
    const { kind: _kind, ...snapshot } = JSON.parse(body) as LiveSnapshot & { kind: 'full' };
    // A version written by a leader of an older build has no full health beside it: the one held here stands in.
    const health = healthRaw ? (JSON.parse(healthRaw) as Health) : cur?.health;
    if (!health) return 'same';
    const steps = stepsRaw.map((x) => JSON.parse(x) as Step);
    const chained = cur !== null && !this.localOnly && epoch === heldEpoch && steps.length === version - heldVersion && steps.every((st, i) => st.v === heldVersion + 1 + i);
    if (chained) {
      // Each step is kept for deltas; the versions between are never served, only the newest.
      for (const st of steps.slice(0, -1)) this.memory.write({ snapshot: { ...cur.snapshot, version: st.v }, body: cur.body, changes: st.c, health: cur.health });
      this.memory.write({ snapshot, body, changes: steps[steps.length - 1]!.c, health });
    } else {
      this.memory.write({ snapshot, body, changes: null, health });
    }
    this.localOnly = false;
    return 'new';
  }

  /**
   * Coordination lost since `lostAt` (or found again: null): the data held is served on as a version of this
   * instance's own, with the banner in its health (or without it again).
   */
  markCoordination(lostAt: number | null): void {
    const cur = this.memory.read();
    if (!cur) return;
    const has = cur.snapshot.health.coordination;
    if ((lostAt === null) === (has === undefined)) return;
    const coordination = lostAt === null ? null : { lostAt, dataAt: has?.dataAt ?? cur.snapshot.generatedAt };
    // The banner in both healths, the viewers' and the administrators'.
    const withBanner = <H extends { coordination?: { lostAt: number; dataAt: number } }>(h: H): H => {
      const { coordination: _gone, ...rest } = h;
      return (coordination ? { ...rest, coordination } : rest) as H;
    };
    const next: LiveSnapshot = { ...cur.snapshot, version: cur.snapshot.version + 1, health: withBanner(cur.snapshot.health) };
    this.memory.write({ snapshot: next, body: JSON.stringify({ kind: 'full', ...next }), changes: liveChanges(cur.snapshot, next), health: withBanner(cur.health) });
    this.localOnly = true;
  }
}
