import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from './config';
import { ExceptionEngine, exceptionId } from './engine';
import { SEVERITY, type Condition } from './rules';

const T0 = Date.parse('2026-03-04T17:00:00Z');
const S = 1_000;

const late = (tripId: number, delayMinutes = 12): Condition => ({
  rule: 'late',
  key: `late|trip:${tripId}`,
  severity: SEVERITY.late,
  subject: { busId: 7, tripId, routeId: 10, routeCode: 'M15', busName: '#7' },
  figures: { delayMinutes },
  message: `trip ${tripId} is late`,
});
const upstream: Condition = { rule: 'upstream', key: 'upstream|integration', severity: 'critical', subject: { busId: null, tripId: null, routeId: null, routeCode: null, busName: null }, figures: {}, message: 'down' };

/** Steps the engine every 10 s from T0 over `seconds`, with the conditions `at(t)` gives; every transition. */
function run(engine: ExceptionEngine, seconds: number, at: (t: number) => Condition[], suppressed: (t: number) => boolean = () => false, from = 0) {
  const out = [];
  for (let s = from; s <= from + seconds; s += 10) out.push(...engine.step(T0 + s * S, at(s), suppressed(s)));
  return out;
}

describe('hysteresis', () => {
  it('opens once the condition held for the hold time, and resolves once it was clear for the same time', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const steps = run(e, 400, (s) => (s >= 100 && s < 250 ? [late(1)] : []));
    expect(steps.map((t) => [t.type, (t.at - T0) / S])).toEqual([
      ['opened', 160],
      ['resolved', 310],
    ]);
    expect(steps[0]!.exception).toMatchObject({ rule: 'late', state: 'open', since: T0 + 100 * S, openedAt: T0 + 160 * S, seq: 1, figures: { delayMinutes: 12 } });
    expect(steps[1]!.exception).toMatchObject({ state: 'resolved', resolvedAt: T0 + 310 * S, seq: 2 });
  });

  it('opens one exception for a condition that flickers, and none for one shorter than the hold', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    // On 100 s, then 30 s off / 30 s on for ten minutes: one exception, open throughout.
    const flicker = run(e, 900, (s) => (s < 100 || (s < 700 && Math.floor(s / 30) % 2 === 0) ? [late(1)] : []));
    expect(flicker.map((t) => t.type)).toEqual(['opened', 'resolved']);
    const short = run(new ExceptionEngine(DEFAULT_THRESHOLDS), 600, (s) => (Math.floor(s / 50) % 2 === 0 ? [late(2)] : []));
    expect(short).toEqual([]);
  });

  it('holds early back longer than late (ALERT_EARLY_HOLD_S)', () => {
    const early: Condition = { ...late(3, -4), rule: 'early', key: 'early|trip:3', severity: 'info' };
    const steps = run(new ExceptionEngine(DEFAULT_THRESHOLDS), 300, () => [early]);
    expect(steps.map((t) => [t.type, (t.at - T0) / S])).toEqual([['opened', 180]]);
  });

  it('keeps the figures current while open without a transition', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    run(e, 100, (s) => [late(1, 10 + Math.floor(s / 60))]);
    expect(e.open()[0]!.figures).toEqual({ delayMinutes: 11 });
    expect(e.open()[0]!.seq).toBe(1);
  });
});

describe('suppression', () => {
  it('neither opens nor resolves bus and trip rules during an outage, and starts them again from fresh data', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const down = (s: number) => s >= 200 && s < 800;
    // Trip 1 was open before the outage; its condition is gone during it (no data); trip 2 appears during it.
    const steps = run(
      e,
      1200,
      (s) => (down(s) ? [upstream] : s < 200 ? [late(1)] : s < 880 ? [late(2)] : []),
      down,
    );
    expect(steps.map((t) => [t.type, t.exception.rule, t.exception.subject.tripId, (t.at - T0) / S])).toEqual([
      ['opened', 'late', 1, 60],
      ['opened', 'upstream', null, 260],
      // Back at 800: trip 2 holds a fresh hold, trip 1 clears over a fresh hold.
      ['opened', 'late', 2, 860],
      ['resolved', 'late', 1, 860],
      ['resolved', 'upstream', null, 860],
      ['resolved', 'late', 2, 940],
    ]);
  });
});

describe('undecided', () => {
  const stopped = (busId: number): Condition => ({ ...late(0), rule: 'stopped', key: `stopped|bus:${busId}`, severity: SEVERITY.stopped, message: `bus ${busId} stands` });

  it('keeps an exception the rules cannot judge as it is, acknowledgement and all, and resolves it once it is clear for the hold', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const opened = e.step(T0, [stopped(7)], false).concat(e.step(T0 + 60 * S, [stopped(7)], false));
    expect(opened.map((t) => t.type)).toEqual(['opened']);
    const id = opened[0]!.exception.id;
    expect(e.acknowledge(id, 'dana', null, T0 + 70 * S)?.type).toBe('acknowledged');
    // After an outage the bus waits minutes for its next fix: undecided, never clear.
    const waiting = new Set(['stopped|bus:7']);
    const meanwhile = [];
    for (let s = 80; s <= 600; s += 10) meanwhile.push(...e.step(T0 + s * S, [], false, waiting));
    expect(meanwhile).toEqual([]);
    expect(e.get(id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'dana' });
    // Seen again, moving: it clears over the hold like any condition.
    const after = [];
    for (let s = 610; s <= 700; s += 10) after.push(...e.step(T0 + s * S, [], false));
    expect(after.map((t) => [t.type, t.exception.id, t.exception.acknowledgedBy, (t.at - T0) / S])).toEqual([['resolved', id, 'dana', 670]]);
  });
});

describe('ids', () => {
  it('derives the same id from the same rule, subject and occurrence, on any engine', () => {
    const a = run(new ExceptionEngine(DEFAULT_THRESHOLDS), 100, () => [late(1)]);
    const b = run(new ExceptionEngine(DEFAULT_THRESHOLDS), 200, (s) => (s >= 50 ? [late(1)] : []));
    expect(a[0]!.exception.id).toBe(b[0]!.exception.id);
    expect(a[0]!.exception.id).toBe(exceptionId('late|trip:1', 0));
    expect(exceptionId('late|trip:1', 1)).not.toBe(exceptionId('late|trip:1', 0));
    expect(exceptionId('late|trip:2', 0)).not.toBe(exceptionId('late|trip:1', 0));
  });

  it('opens a condition that returns after resolving as a new exception with the next id', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const steps = run(e, 600, (s) => (s < 100 || s >= 300 ? [late(1)] : []));
    const opened = steps.filter((t) => t.type === 'opened').map((t) => t.exception.id);
    expect(opened).toEqual([exceptionId('late|trip:1', 0), exceptionId('late|trip:1', 1)]);
  });

  it('resumes open exceptions from the store without opening them again, and counts on from the store', () => {
    const first = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const opened = run(first, 100, () => [late(1)]);
    const restarted = new ExceptionEngine(DEFAULT_THRESHOLDS);
    restarted.resume(first.open(), new Map([['late|trip:1', 1], ['late|trip:5', 3]]));
    expect(run(restarted, 300, () => [late(1), late(5)], () => false, 200).map((t) => [t.type, t.exception.id])).toEqual([['opened', exceptionId('late|trip:5', 3)]]);
    expect(restarted.open().map((x) => x.id)).toEqual([opened[0]!.exception.id, exceptionId('late|trip:5', 3)]);
  });
});

describe('lifecycle', () => {
  it('acknowledges an open exception once, snoozes it, and counts each transition in seq', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    const [opened] = run(e, 60, () => [late(1)]);
    const id = opened!.exception.id;
    const ack = e.acknowledge(id, 'dana', 'calling the garage', T0 + 100 * S)!;
    expect(ack.exception).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'dana', note: 'calling the garage', acknowledgedAt: T0 + 100 * S, seq: 2 });
    expect(e.acknowledge(id, 'lee', null, T0 + 110 * S)).toBeNull();
    expect(e.snooze(id, T0 + 1000 * S, 'dana', T0 + 120 * S)!.exception).toMatchObject({ snoozedUntil: T0 + 1000 * S, seq: 3 });
    const resolved = run(e, 200, () => [], () => false, 130);
    expect(resolved.map((t) => [t.type, t.exception.seq, t.exception.acknowledgedBy])).toEqual([['resolved', 4, 'dana']]);
    expect(e.acknowledge(id, 'dana', null, T0)).toBeNull();
  });

  it('finds an exception by id while it is not resolved: opened here, resumed from the store, again under its next id', () => {
    const e = new ExceptionEngine(DEFAULT_THRESHOLDS);
    e.resume([{ ...run(new ExceptionEngine(DEFAULT_THRESHOLDS), 100, () => [late(2)])[0]!.exception }], new Map());
    const steps = run(e, 600, (s) => [...(s < 100 || s >= 300 ? [late(1)] : []), late(2)]);
    const [first, second] = steps.filter((t) => t.type === 'opened').map((t) => t.exception.id);
    expect(e.get(exceptionId('late|trip:2', 0))).toMatchObject({ rule: 'late', subject: { tripId: 2 } });
    expect(e.get(first!)).toBeNull();
    expect(e.get(second!)).toMatchObject({ id: second, state: 'open' });
    expect(e.open().map((x) => x.id).sort()).toEqual([exceptionId('late|trip:2', 0), second].sort());
  });
});
