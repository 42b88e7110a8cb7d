// A store belongs to one upstream (issue 28, "Integrity"). The app records against one simulator, then starts
// with the same store against a second one (another seed, another port, another service day: its trip ids differ):
// the start refuses with one sentence naming both hosts and the two ways out. With FLEETMAP_STORE_RESET=1 it starts,
// the old store is moved aside (never deleted), and nothing the first simulator's run recorded appears in /api/live
// or in any history answer.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { FleetMomentResponse, HistoryRoutesResponse, LiveSnapshot } from '@/lib/model';
import { startStack, startWithin, type Stack } from './support/stack';

test.describe.configure({ timeout: 900_000 });

const json = async <T>(appUrl: string, path: string): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${appUrl}${path}`);
  return { status: res.status, body: (await res.json()) as T };
};

const tripIdsOf = (s: LiveSnapshot) => new Set([...s.vehicles.flatMap((v) => (v.trip ? [v.trip.tripId] : [])), ...s.unpositionedTrips.map((t) => t.tripId)]);

test('a store recorded from one upstream refuses another; FLEETMAP_STORE_RESET=1 sets the old data aside and none of it shows', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetmap-e2e-integrity-'));
  let second: Stack | null = null;
  try {
    // 1. Record against the first simulator until the recorder has written trips and fixes.
    const first = await startWithin(330_000, (progress) => startStack({ seed: 42, progress, env: { FLEETMAP_DATA_DIR: dataDir } }));
    let firstTrips = new Set<number>();
    let recordedAt = 0;
    try {
      await expect
        .poll(async () => {
          const answer = await json<LiveSnapshot>(first.appUrl, '/api/live');
          if (answer.status !== 200) return false;
          const live = answer.body;
          firstTrips = tripIdsOf(live);
          if (live.vehicles.filter((v) => v.lat !== null && v.trip).length < 5) return false;
          // Some trip of this run is in the history (the recorder wrote it), so its absence later means something.
          for (const id of [...firstTrips].slice(0, 5)) if ((await fetch(`${first.appUrl}/api/history/trips/${id}`)).status === 200) return true;
          return false;
        }, { timeout: 300_000 })
        .toBe(true);
      recordedAt = Date.now();
      expect(firstTrips.size).toBeGreaterThan(0);
    } finally {
      await first.stop();
    }
    const firstHost = new URL(first.simBaseUrl).host;

    // 2. The same store against another simulator (another seed and port, two service days later): refused.
    const twoDaysLater = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const other = { seed: 7, simEnv: { SIM_START_AT: twoDaysLater } };
    const refused = await startWithin(330_000, (progress) => startStack({ ...other, progress, env: { FLEETMAP_DATA_DIR: dataDir } })).then(
      (s) => s.stop().then(() => ''),
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/The app server exited with code 1/);
    const sentence = /The store \(PGlite in [^)]+\) belongs to the upstream at (\S+), and this start reads (\S+): .*FLEETMAP_DATA_DIR.*FLEETMAP_STORE_RESET=1.*never deleted\)\./.exec(refused);
    expect(sentence, refused.slice(-1500)).not.toBeNull();
    expect(sentence![1]).toBe(firstHost);
    expect(sentence![2]).not.toBe(firstHost);

    // 3. With FLEETMAP_STORE_RESET=1: it starts, the old store is beside the new one, and nothing of it shows.
    const switchedAt = Date.now();
    second = await startWithin(330_000, (progress) => startStack({ ...other, progress, env: { FLEETMAP_DATA_DIR: dataDir, FLEETMAP_STORE_RESET: '1' } }));
    expect(readdirSync(dataDir).filter((f) => f.startsWith('pglite.aside-'))).toHaveLength(1);
    expect(second.appLogs()).toMatch(/store moved aside/);
    let live: LiveSnapshot | null = null;
    await expect
      .poll(async () => {
        const answer = await json<LiveSnapshot>(second!.appUrl, '/api/live');
        // 503 while the server is still starting.
        if (answer.status !== 200) return 0;
        live = answer.body;
        return live.vehicles.filter((v) => v.lat !== null && v.trip).length;
      }, { timeout: 240_000 })
      .toBeGreaterThanOrEqual(5);
    // No restored fix (each would be older than this start) and no trip of the first run, live or in history.
    expect(live!.vehicles.filter((v) => v.fetchedAt !== null && v.fetchedAt < switchedAt)).toEqual([]);
    expect([...tripIdsOf(live!)].filter((id) => firstTrips.has(id))).toEqual([]);
    for (const id of [...firstTrips].slice(0, 10)) expect((await fetch(`${second.appUrl}/api/history/trips/${id}`)).status, `trip ${id}`).toBe(404);
    const moment = (await json<FleetMomentResponse>(second.appUrl, `/api/history/fleet?at=${new Date(recordedAt - 5_000).toISOString()}`)).body;
    expect(moment.vehicles).toEqual([]);
    expect(moment.recorded === null || moment.recorded.from >= switchedAt).toBe(true);
    // The first run's service day, whatever the agency's zone (a day either side of UTC's); the second simulator
    // runs two days later.
    const day = (offset: number) => new Date(recordedAt + offset * 86_400_000).toISOString().slice(0, 10);
    const routes = await json<HistoryRoutesResponse>(second.appUrl, `/api/history/routes?from=${day(-1)}&to=${day(1)}`);
    expect(routes.status).toBe(200);
    expect(routes.body.routes.filter((r) => r.activeTrips > 0)).toEqual([]);
  } finally {
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
