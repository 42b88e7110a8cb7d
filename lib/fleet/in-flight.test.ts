import { describe, expect, it } from 'vitest';
import { FakeClock } from '@/lib/testing/fake-clock';
import { InFlight, MAX_IN_FLIGHT, MIN_IN_FLIGHT } from './in-flight';

describe('InFlight', () => {
  async function answered(clock: FakeClock, f: InFlight, latencyMs: number, n: number) {
    for (let i = 0; i < n; i++) {
      const done = f.run(() => clock.sleep(latencyMs));
      await clock.advance(latencyMs);
      await done;
    }
  }

  it('keeps the floor before any answer, then as many out as the answers’ latency needs at one send per slot', async () => {
    const clock = new FakeClock();
    const f = new InFlight(clock);
    expect(f.cap(62.5)).toBe(MIN_IN_FLIGHT);
    await answered(clock, f, 400, 1);
    // 400 ms answers, a slot every 62.5 ms: 6.4 out on average, with room for their spread.
    expect(f.cap(62.5)).toBe(Math.ceil((1.5 * 400) / 62.5) + 1);
    expect(f.cap(62.5)).toBeGreaterThan(400 / 62.5);
    // Fast answers: the floor.
    await answered(clock, f, 20, 60);
    expect(f.cap(62.5)).toBe(MIN_IN_FLIGHT);
  });

  it('never allows more than its ceiling, however slow the answers', async () => {
    const clock = new FakeClock();
    const f = new InFlight(clock);
    await answered(clock, f, 30_000, 1);
    expect(f.cap(62.5)).toBe(MAX_IN_FLIGHT);
    const small = new InFlight(clock, 2);
    await answered(clock, small, 30_000, 1);
    expect(small.cap(62.5)).toBe(2);
    expect(new InFlight(clock, 2).cap(62.5)).toBe(2);
  });

  it('counts a request from its reservation or its start until it settles, failures included, and wakes who waits', async () => {
    const clock = new FakeClock();
    const f = new InFlight(clock);
    f.reserve();
    expect(f.count).toBe(1);
    const failing = f.run(() => clock.sleep(100).then(() => Promise.reject(new Error('503'))), true);
    // Its handler is attached before the clock lets it fail: a rejection with none yet is reported as unhandled.
    const failed = expect(failing).rejects.toThrow('503');
    const plain = f.run(() => clock.sleep(200));
    expect(f.count).toBe(2);
    let woke = 0;
    void f.settled().then(() => woke++);
    await clock.advance(100);
    await failed;
    expect(f.count).toBe(1);
    expect(woke).toBe(1);
    await clock.advance(100);
    await plain;
    expect(f.count).toBe(0);
    expect(f.meanLatencyMs).toBe(110);
  });
});
