// Several instances of Fleetmap serving one fleet (lib/cluster): read from the environment once, at start.
// REDIS_URL unset is the single process of old; set, every instance with the same FLEETMAP_CLUSTER name shares
// one leader, one budget and one snapshot, and all of them must use one PostgreSQL (PGlite is one process).

export interface ClusterConfig {
  redisUrl: string;
  /** FLEETMAP_CLUSTER: the prefix of every key, so that two fleets can share one Redis. */
  name: string;
  /** How long a leader's lease lasts without a renewal. */
  leaseTtlMs: number;
}

/** A leader killed without a word is replaced once its lease lapses: this long, plus one candidate's try. */
export const DEFAULT_LEASE_TTL_MS = 6_000;

export type ClusterConfigResult = { ok: true; config: ClusterConfig | null } | { ok: false; message: string };

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function readClusterConfig(env: Record<string, string | undefined> = process.env): ClusterConfigResult {
  const redisUrl = env.REDIS_URL?.trim();
  if (!redisUrl) return { ok: true, config: null };
  if (!/^rediss?:\/\//.test(redisUrl)) return { ok: false, message: 'REDIS_URL must be a redis:// or rediss:// address.' };
  const db = env.DATABASE_URL?.trim() ?? '';
  if (!/^postgres(ql)?:\/\//.test(db)) {
    return { ok: false, message: 'REDIS_URL is set, so several instances share one store: set DATABASE_URL to a PostgreSQL database (PGlite serves one process only).' };
  }
  const name = env.FLEETMAP_CLUSTER?.trim() || 'fleetmap';
  if (!NAME.test(name)) return { ok: false, message: 'FLEETMAP_CLUSTER must be 1 to 64 letters, digits, dots, dashes or underscores.' };
  const ttlRaw = env.FLEETMAP_LEASE_TTL_S?.trim();
  let leaseTtlMs = DEFAULT_LEASE_TTL_MS;
  if (ttlRaw) {
    const s = Number(ttlRaw);
    if (!Number.isFinite(s) || s < 2 || s > 60) return { ok: false, message: 'FLEETMAP_LEASE_TTL_S must be a number of seconds from 2 to 60.' };
    leaseTtlMs = Math.round(s * 1000);
  }
  return { ok: true, config: { redisUrl, name, leaseTtlMs } };
}

/** Every key and channel of one cluster, under its name. */
export function clusterKeys(name: string) {
  const p = `${name}:`;
  return {
    lease: `${p}lease`,
    epoch: `${p}epoch`,
    budget: `${p}budget`,
    snapshot: `${p}snapshot`,
    steps: `${p}steps`,
    lists: `${p}lists`,
    watches: `${p}watches`,
    versionChannel: `${p}version`,
    releasedChannel: `${p}released`,
    rpcChannel: `${p}rpc`,
    replyChannel: (instanceId: string) => `${p}reply:${instanceId}`,
  };
}

export type ClusterKeys = ReturnType<typeof clusterKeys>;
