import { createSimulator, type Simulator } from './index';
import { maskKey } from './keys';
import { simOptionsFromEnv } from './options';

// The simulator inside the app's server process, started from instrumentation when no upstream is
// configured. Next.js may evaluate this module in more than one module graph, so the running instance
// is kept on globalThis under a registry symbol: a second call gets the same one.

export interface EmbeddedSimulator {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

const KEY = Symbol.for('fleetmap.sim.embedded');
type Holder = { [KEY]?: Promise<EmbeddedSimulator> };

export function startEmbeddedSimulator(env: Record<string, string | undefined> = process.env): Promise<EmbeddedSimulator> {
  const holder = globalThis as Holder;
  const running = holder[KEY];
  if (running) return running;
  const started = start(env);
  holder[KEY] = started;
  // A failed start must not poison the next attempt.
  started.catch(() => {
    if (holder[KEY] === started) delete holder[KEY];
  });
  return started;
}

async function start(env: Record<string, string | undefined>): Promise<EmbeddedSimulator> {
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
    async close() {
      const holder = globalThis as Holder;
      delete holder[KEY];
      await sim.close();
    },
  };
}
