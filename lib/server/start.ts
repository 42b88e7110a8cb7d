import 'server-only';
import { startAuth } from '@/lib/auth';
import { validateConfigAtStartup } from '@/lib/config';
import { startFeed } from '@/lib/fleet';
import { processStore } from '@/lib/history';
import { isUpstreamConfigured, registerEmbeddedUpstream } from '@/lib/partner';
import { startEmbeddedSimulator } from '@/lib/sim/embedded';

/**
 * Server start: validate the configuration (one clear line per problem, and the server does not start on a
 * bad configuration), start the embedded simulator when no upstream is configured, then start the one feed.
 * Whatever subscribes to the feed (a recorder) or replaces its snapshot store (a cluster) is wired here, in
 * startFeed's wiring, never inside lib/fleet.
 */
export async function startServer() {
  validateConfigAtStartup();
  if (!isUpstreamConfigured()) {
    const sim = await startEmbeddedSimulator();
    registerEmbeddedUpstream({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    console.info(JSON.stringify({ msg: 'embedded simulator started', baseUrl: sim.baseUrl }));
  }
  // Opening the store applies its migrations; a data directory another process holds stops the start here.
  const store = await processStore();
  console.info(JSON.stringify({ msg: 'store opened', where: store.where }));
  // Sign-in keeps its users, sessions, wall tokens and audit log in the same store.
  await startAuth(async () => store.db);
  await startFeed();
}
