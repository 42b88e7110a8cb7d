import 'server-only';

// Several instances serving one fleet on Redis (REDIS_URL): one leader polls and records, every instance serves
// the leader's snapshot versions, all share the key's per-minute budget. lib/server/start.ts wires it into the
// feed (startFeed's store, sharedBudget and beforeStart); lib/fleet never imports this room.
//   config.ts          REDIS_URL, FLEETMAP_CLUSTER, the lease's TTL; the keys under the cluster's name
//   lease.ts           the leader's lease and its fencing epoch
//   shared-budget.ts   the per-minute counter every upstream request passes
//   snapshot-store.ts  the fenced snapshot writes, the followers' pulls, the coordination banner
//   forward.ts         watches, lookups and lists between followers and the leader
//   node.ts            one instance's role and its ticks

export { readClusterConfig, clusterKeys, DEFAULT_LEASE_TTL_MS, type ClusterConfig } from './config';
export { ClusterNode, type NodeHooks } from './node';
