import { afterEach, expect, it } from 'vitest';
import { describeEachStore, type TestStore } from '@/lib/testing/store';
import { DEFAULT_THRESHOLDS } from './config';
import { ExceptionEngine, type Transition } from './engine';
import { SEVERITY, type Condition } from './rules';
import { ExceptionStore } from './store';

const T0 = Date.parse('2026-03-04T17:00:00Z');
const S = 1_000;

const late = (tripId: number): Condition => ({
  rule: 'late',
  key: `late|trip:${tripId}`,
  severity: SEVERITY.late,
  subject: { busId: tripId, tripId, routeId: 10, routeCode: 'M15', busName: null },
  figures: { delayMinutes: 12 },
  message: `trip ${tripId} is late`,
});

const stores: TestStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.dispose();
});

describeEachStore('the exceptions store', (target) => {
  it('lists the unresolved exceptions someone acknowledged or snoozed, and no other, for the leader to adopt', async () => {
    const store = await target.open();
    stores.push(store);
    const exceptions = new ExceptionStore(store.db);
    const engine = new ExceptionEngine(DEFAULT_THRESHOLDS);
    // Four trips late long enough to open; then trip 4 clears and resolves.
    const opened: Transition[] = [];
    for (let s = 0; s <= 120; s += 10) opened.push(...(await exceptions.record(engine.step(T0 + s * S, [1, 2, 3, 4].map(late), false))));
    expect(opened.map((t) => t.type)).toEqual(['opened', 'opened', 'opened', 'opened']);
    const id = (trip: number) => opened.find((t) => t.exception.subject.tripId === trip)!.exception.id;
    expect(await exceptions.actedOn()).toEqual([]);

    await exceptions.acknowledge(id(1), 'dana', 'calling the garage', T0 + 130 * S, null);
    await exceptions.snooze(id(2), T0 + 3_600 * S, 'lee', T0 + 131 * S, null);
    await exceptions.acknowledge(id(4), 'dana', null, T0 + 132 * S, null);
    for (let s = 140; s <= 300; s += 10) await exceptions.record(engine.step(T0 + s * S, [1, 2, 3].map(late), false));

    const acted = await exceptions.actedOn();
    expect(acted.map((e) => [e.subject.tripId, e.state, e.acknowledgedBy, e.snoozedUntil, e.seq]).sort()).toEqual([
      [1, 'acknowledged', 'dana', null, 2],
      [2, 'open', null, T0 + 3_600 * S, 2],
    ]);
    // Trip 3, never touched, stays out; trip 4 resolved after its acknowledgement.
    expect((await exceptions.unresolved()).map((e) => e.subject.tripId).sort()).toEqual([1, 2, 3]);
  });
});
