// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useHeldNow } from './use-held-now';

afterEach(cleanup);

const T0 = Date.UTC(2026, 11, 8, 12, 0, 0);

describe('useHeldNow', () => {
  it('holds the clock while the data stays, for at most everyMs, and takes it with new data or a clock gone back', () => {
    const a = { v: 1 };
    const b = { v: 2 };
    const { result, rerender } = renderHook(({ now, data }) => useHeldNow(now, 5_000, [data]), { initialProps: { now: T0, data: a } });
    expect(result.current).toBe(T0);
    rerender({ now: T0 + 1_000, data: a });
    expect(result.current).toBe(T0);
    rerender({ now: T0 + 4_999, data: a });
    expect(result.current).toBe(T0);
    rerender({ now: T0 + 5_000, data: a });
    expect(result.current).toBe(T0 + 5_000);
    rerender({ now: T0 + 6_000, data: a });
    expect(result.current).toBe(T0 + 5_000);
    // New data: the rows are built now, whatever the time since.
    rerender({ now: T0 + 7_000, data: b });
    expect(result.current).toBe(T0 + 7_000);
    // A clock that went back (the server's clock read anew) is taken at once.
    rerender({ now: T0 + 2_000, data: b });
    expect(result.current).toBe(T0 + 2_000);
  });

  it('takes the first real time at once after 0 (no snapshot yet)', () => {
    const data = [1];
    const { result, rerender } = renderHook(({ now }) => useHeldNow(now, 5_000, data), { initialProps: { now: 0 } });
    expect(result.current).toBe(0);
    rerender({ now: T0 });
    expect(result.current).toBe(T0);
  });
});
