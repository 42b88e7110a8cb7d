import { describe, expect, it } from 'vitest';
import type { Feed } from '@/lib/fleet';
import type { Health, UpstreamRecord } from '@/lib/model';
import { makeHealth } from '@/lib/testing/view-factories';
import { integrationStatus, lastTrips } from './integration';
import type { StatusSources } from './status-sources';

const RECORD: UpstreamRecord = { since: 0, minutes: [], errors: [], transitions: [] };
const feed = { health: (): Health => makeHealth(), upstreamRecord: () => RECORD } as unknown as Feed;

describe('the status page answer', () => {
  it('says "no recorder" and "single instance" (null) when nothing was plugged in', () => {
    const r = integrationStatus(feed, {});
    expect(r.recorder).toBeNull();
    expect(r.instance).toBeNull();
    expect(r.record).toBe(RECORD);
    expect(r.build.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('carries what the recorder and the cluster report, and a recorder that cannot report as failed', () => {
    const sources: StatusSources = {
      recorder: () => ({ state: 'recording', store: 'pglite', lagMs: 800, pending: 2, lastWriteAt: 1, message: null }),
      instance: () => ({ role: 'leader', epoch: 4, instanceId: 'a', leaderId: 'a' }),
    };
    let r = integrationStatus(feed, sources);
    expect(r.recorder?.state).toBe('recording');
    expect(r.instance).toEqual({ role: 'leader', epoch: 4, instanceId: 'a', leaderId: 'a' });
    sources.recorder = () => {
      throw new Error('pool closed');
    };
    r = integrationStatus(feed, sources);
    expect(r.recorder).toMatchObject({ state: 'failed', message: 'The recorder could not report its state: pool closed' });
    // The other source stays.
    expect(r.instance?.role).toBe('leader');
  });

  it('answers last trips from history, or that none are recorded here', async () => {
    const listed = { busesList: () => ({ ok: true as const, value: { buses: [{ id: 7 }, { id: 8 }], fetchedAt: 1 } }) } as unknown as Pick<Feed, 'busesList'>;
    expect(await lastTrips(listed, {})).toEqual({ recorded: false });
    let asked: readonly number[] = [];
    const sources: StatusSources = {
      lastTrips: async (ids) => {
        asked = ids;
        return new Map([[7, { tripId: 3, routeCode: 'M15', lastSeenAt: 1000 }]]);
      },
    };
    expect(await lastTrips(listed, sources)).toEqual({ recorded: true, byBus: { '7': { tripId: 3, routeCode: 'M15', lastSeenAt: 1000 } } });
    // The buses the feed listed are the ones asked about.
    expect(asked).toEqual([7, 8]);
  });
});
