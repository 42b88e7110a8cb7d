import { describe, expect, it } from 'vitest';
import { formatAge, snapshotDataAgeMs } from './data-age';

describe('snapshotDataAgeMs', () => {
  it('adds server-side age to local time since receipt, ignoring clock skew between them', () => {
    // The browser clock runs an hour ahead of the server: it must not matter.
    const snap = { generatedAt: 1_000_000, health: { lastSuccessAt: 997_000 } };
    const receivedAt = 1_000_000 + 3_600_000;
    expect(snapshotDataAgeMs(snap, receivedAt, receivedAt + 4_000)).toBe(7_000);
  });
  it('is null before any upstream success', () => {
    expect(snapshotDataAgeMs({ generatedAt: 5, health: { lastSuccessAt: null } }, 0, 10)).toBeNull();
  });
  it('formats ages for people', () => {
    expect(formatAge(4_900)).toBe('4 s ago');
    expect(formatAge(125_000)).toBe('2 min 5 s ago');
    expect(formatAge(3 * 3_600_000 + 60_000)).toBe('3 h 1 min ago');
    expect(formatAge(null)).toBe('no data yet');
  });
});
