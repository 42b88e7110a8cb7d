import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from './csv';

describe('csv', () => {
  it('quotes only what needs it and reads back what it wrote', () => {
    const lines = [
      ['plate', 'name'],
      ['AB-1', 'Bus "one", the first'],
      ['', 'two\nlines'],
    ];
    const text = toCsv(lines);
    expect(text).toBe('plate,name\r\nAB-1,"Bus ""one"", the first"\r\n,"two\nlines"\r\n');
    expect(parseCsv(text)).toEqual(lines);
  });
});
