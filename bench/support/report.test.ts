import { describe, expect, it } from 'vitest';
import { comparison, formatValue, renderTable, type Figure } from './report';

const figure = (fleetmap: number | null, peer: number | null, better: Figure['better'] = 'lower'): Figure => ({ metric: 'm', unit: 'ms', fleetmap, peer, better });

describe('bench report', () => {
  it('says who is ahead and by how much', () => {
    expect(comparison(figure(10, 40))).toBe('Fleetmap 4.00× lower');
    expect(comparison(figure(40, 10))).toBe('peer 4.00× lower');
    expect(comparison(figure(300, 100, 'higher'))).toBe('Fleetmap 3.00× higher');
    expect(comparison(figure(0, 12))).toBe('Fleetmap ahead');
    expect(comparison(figure(5, null))).toBe('');
  });

  it('formats figures with sensible precision', () => {
    expect(formatValue(1234.5, '/min')).toBe('1235 /min');
    expect(formatValue(12.345, 's')).toBe('12.3 s');
    expect(formatValue(0.5, '×')).toBe('0.500×');
    expect(formatValue(0, '%')).toBe('0 %');
    expect(formatValue(null, 'ms')).toBe('–');
  });

  it('prints one aligned row per figure, the title on the first', () => {
    const table = renderTable([
      { name: 'a', title: '1. A', peer: 'naive', conditions: '', details: {}, seconds: 1, figures: [figure(1, 2), { ...figure(3, null), metric: 'other' }] },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toContain('1. A');
    expect(lines[2]).toContain('naive');
    expect(lines[3]).not.toContain('1. A');
    expect(lines[3]).not.toContain('naive');
  });
});
