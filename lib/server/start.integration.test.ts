import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getIntegration } from '@/app/api/integration/route';
import { GET as getStatus } from '@/app/api/status/route';
import type { IntegrationResponse } from '@/lib/model';
import { startServer } from './start';

// Server start builds the application context in steps (store, sign-in, simulator, feed with its recorder) and
// publishes it last. A request that arrives meanwhile (server.mjs forwards requests as soon as it listens) must
// get a 503, never a feed made for it on the spot: such a feed would have no recorder and no cluster, and server
// start would then find it and serve it as it was.
const ENV = { FLEETMAP_DATA_DIR: '', SIM_BUSES: '20', HOST: '127.0.0.1' };

describe('server start', () => {
  let dir: string;
  let started: Awaited<ReturnType<typeof startServer>> | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fleetmap-start-'));
    Object.assign(process.env, ENV, { FLEETMAP_DATA_DIR: dir });
  });

  afterAll(async () => {
    await started?.shutdown();
    for (const k of Object.keys(ENV)) delete process.env[k];
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with one sentence to a request that arrives during start, then serves the feed start wired', async () => {
    const starting = startServer();
    // The store is still opening (PGlite takes seconds): the context does not exist yet.
    const early = await getStatus();
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(await early.json()).toEqual({ error: { status: 503, message: 'The server is starting; try again in a moment.' } });

    started = await starting;
    const status = await getStatus();
    expect(status.status).toBe(200);
    // The feed the routes read is the one whose events the recorder hears: the status page has its section.
    const integration = (await (await getIntegration()).json()) as IntegrationResponse;
    expect(integration.recorder).not.toBeNull();
    expect(integration.recorder?.store).toBe(`PGlite in ${dir}`);
    // A deadline for the start only (18 s alone here): beside the browser tests at load 15 (npm test on 7 December
    // 2026), starting the store, the simulator and the feed took more than the suite's 120 s.
  }, 360_000);

  it('runs once per process: its embedded simulator is the context\'s, and a second start is refused before it starts anything', async () => {
    expect(started?.simulator?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/partner$/);
    await expect(startServer()).rejects.toThrow('The server has already been started in this process: a process starts once.');
    // The first start's context still serves.
    expect((await getStatus()).status).toBe(200);
  });
});
