// `npm run sim`: the Partner API v1 simulator on its own, on SIM_PORT (default 4010) at 127.0.0.1.
// SIM_EXIT_AFTER_S stops it after N seconds; SIM_EXIT_WITH_PARENT=1 stops it when its parent process dies.
import { PLAN_NAMES, createSimulator, maskKey, simOptionsFromEnv, simRunnerFromEnv } from '../../lib/sim/index';

async function main() {
  let options;
  let runner;
  try {
    options = simOptionsFromEnv(process.env);
    runner = simRunnerFromEnv(process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const sim = createSimulator(options);
  const { baseUrl } = await sim.listen(runner.port, '127.0.0.1');
  const clock = sim.clock();
  console.log(`Partner API v1 simulator listening at ${baseUrl}`);
  console.log(`  sim time ${clock.local} (${clock.timezone}), speed x${clock.speed}, seed ${options.seed}`);
  console.log(`  ${sim.plan.totalBuses} buses (${sim.plan.workBuses} on routes, ${sim.plan.spareBuses} spare), ${sim.world.net.routes.length} routes`);
  console.log('  keys (send as Authorization: Bearer <key>):');
  // The demo keys are public; keys from SIM_KEYS are secrets and only their first characters are shown.
  const customKeys = Boolean(process.env.SIM_KEYS?.trim());
  for (const k of sim.keys) {
    const shown = customKeys ? maskKey(k.key) : k.key;
    console.log(`    ${shown}  ${PLAN_NAMES[k.plan]}  ${k.limitPerMinute}/min  ${k.scopes.join(' ')}`);
  }
  console.log(`  admin: ${sim.admin ? `on (${baseUrl.replace(/\/api\/v1\/partner$/, '')}/__admin/...)` : 'off (set SIM_ADMIN=1)'}`);

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping simulator (${why})`);
    await sim.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (runner.exitAfterS !== null) setTimeout(() => void stop(`SIM_EXIT_AFTER_S=${runner.exitAfterS}`), runner.exitAfterS * 1000).unref();
  if (runner.exitWithParent) {
    const parent = process.ppid;
    // Adopted by init already: the parent died before we got here.
    if (parent === 1) void stop('parent process exited before start');
    // When the parent dies the process is re-parented, so ppid changes; signal 0 confirms it is gone.
    setInterval(() => {
      let alive = process.ppid === parent;
      if (alive) {
        try {
          process.kill(parent, 0);
        } catch {
          alive = false;
        }
      }
      if (!alive) void stop('parent process exited');
    }, 1000).unref();
  }
}

void main();
