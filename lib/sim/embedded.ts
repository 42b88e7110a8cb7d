import { createSimulator, type Simulator } from './index';
import { maskKey } from './keys';
import { simOptionsFromEnv } from './options';

// The simulator inside the app's server process, started by server start (lib/server/start.ts) when no upstream
// is configured. The application context holds it (`simulator`) and closes it at shutdown; a process starts its
// server once (lib/server/context.ts claimAppStart), so it runs one. Each call here starts a new one.

export interface EmbeddedSimulator {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startEmbeddedSimulator(env: Record<string, string | undefined> = process.env): Promise<EmbeddedSimulator> {
  const options = simOptionsFromEnv(env);
  const sim: Simulator = createSimulator(options);
  const key = sim.keys.find((k) => k.plan === 'business') ?? sim.keys[0]!;
  const { baseUrl } = await sim.listen(0, '127.0.0.1');
  // The app's own server keeps the process alive; the simulator alone must not.
  sim.unref();
  console.info(`[sim] embedded Partner API simulator at ${baseUrl}: ${sim.world.busCount} buses, key ${maskKey(key.key)} (${key.plan})${sim.admin ? ', admin on' : ''}`);
  return {
    baseUrl,
    apiKey: key.key,
    close: () => sim.close(),
  };
}
