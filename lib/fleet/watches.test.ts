import { describe, expect, it } from 'vitest';
import { MAX_WATCHES_PER_CLIENT, MAX_WATCHES_TOTAL, WatchRegistry } from './watches';

const TTL = 30_000;

describe('WatchRegistry', () => {
  it('keeps a client to its newest few buses, ending the replaced one at once', () => {
    const w = new WatchRegistry(TTL);
    for (let bus = 1; bus <= MAX_WATCHES_PER_CLIENT; bus++) expect(w.add('a', bus, 0)).toEqual({ outcome: 'watching', dropped: [] });
    expect(w.add('a', 99, 1)).toEqual({ outcome: 'watching', dropped: [1] });
    expect(w.watchedUntil(1, 1)).toBe(0);
    expect(w.watchedUntil(99, 1)).toBe(1 + TTL);
    expect(w.distinctBuses(1)).toBe(MAX_WATCHES_PER_CLIENT);
  });

  it('does not end a bus another client still watches', () => {
    const w = new WatchRegistry(TTL, 1, 10);
    w.add('a', 5, 0);
    w.add('b', 5, 100);
    expect(w.add('a', 6, 200).dropped).toEqual([]);
    expect(w.watchedUntil(5, 200)).toBe(100 + TTL);
  });

  it('refuses a new bus once the feed holds its total, until a watch lapses', () => {
    const w = new WatchRegistry(TTL);
    for (let i = 0; i < MAX_WATCHES_TOTAL; i++) expect(w.add(`client-${i}`, i + 1, 0).outcome).toBe('watching');
    expect(w.add('late', 500, 10).outcome).toBe('refused');
    // Another viewer of a bus already watched costs nothing.
    expect(w.add('late', 1, 10).outcome).toBe('watching');
    expect(w.distinctBuses(10)).toBe(MAX_WATCHES_TOTAL);
    expect(w.add('later', 500, TTL + 1).outcome).toBe('watching');
  });

  it('lets a client at its own bound swap its oldest bus even when the feed is full', () => {
    const w = new WatchRegistry(TTL, 2, 2);
    w.add('a', 1, 0);
    w.add('a', 2, 0);
    expect(w.add('a', 3, 5)).toEqual({ outcome: 'watching', dropped: [1] });
    expect(w.add('b', 4, 5).outcome).toBe('refused');
  });
});
