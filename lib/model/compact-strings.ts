// String columns of the compact forms of /api/live (lib/model/live-compact.ts) and of its roster
// (lib/model/live-roster.ts): a column's common prefix said once, a rest that is a whole number sent as a number,
// and one that is one more than a number a few rows before as a reference back to it (fleets number their buses in
// series). A column whose rests are another's, row for row, says so instead of repeating them. Pure functions,
// shared by the server's encoder and the browser's decoder.

/**
 * A column of strings: each value is `x` followed by its rest in `v`, or null. A whole number ≥ 0 stands for its
 * decimal digits; a negative one, -k, for one more than the number the row k rows before stands for.
 */
export interface CompactStrings {
  x: string;
  v: (string | number | null)[];
}

/** A column of strings whose rests are those of the column named by `restsOf`, each after this column's own `x`. */
export interface CompactSameRests {
  x: string;
  restsOf: 'n';
}

const WHOLE = /^(0|[1-9][0-9]{0,14})$/;

export function encodeStrings(values: readonly (string | null)[]): CompactStrings {
  let x: string | null = null;
  for (const s of values) {
    if (s === null) continue;
    if (x === null) x = s;
    else {
      let i = 0;
      while (i < x.length && i < s.length && x[i] === s[i]) i++;
      x = x.slice(0, i);
    }
    if (x === '') break;
  }
  // A rest of digits alone goes as a number: the prefix then stops before the digits (so "#7100" and "#7200" are
  // "#" with 7100 and 7200, not "#7" with "100" and "200").
  x = (x ?? '').replace(/[0-9]+$/, '');
  const n = x.length;
  // The row each whole number was last seen at, so that its successor can refer back to it.
  const lastRow = new Map<number, number>();
  const v = values.map((s, row): string | number | null => {
    if (s === null) return null;
    const rest = s.slice(n);
    if (!WHOLE.test(rest)) return rest;
    const num = Number(rest);
    const before = lastRow.get(num - 1);
    lastRow.set(num, row);
    return before !== undefined && row - before < num ? before - row : num;
  });
  return { x, v };
}

/** `c` as the rests of `n` (each after its own prefix) when they are those rests, row for row. */
export function encodeSameRests(c: CompactStrings, n: CompactStrings): CompactStrings | CompactSameRests {
  const same = c.v.length === n.v.length && c.v.every((r, i) => r === n.v[i]);
  return same ? { x: c.x, restsOf: 'n' } : c;
}

/** A string column's values, its references back resolved. */
export function decodeStrings(c: CompactStrings): (string | null)[] {
  const nums: number[] = new Array(c.v.length);
  return c.v.map((v, row) => {
    if (v === null) return null;
    if (typeof v === 'string') return c.x + v;
    const num = v >= 0 ? v : nums[row + v]! + 1;
    if (!Number.isInteger(num)) throw new Error(`compact string column: row ${row} refers to a row without a number`);
    nums[row] = num;
    return c.x + String(num);
  });
}

/** A column that may be another's rests (`n`): its own, or those rests after its own prefix. */
export function decodeCodes(c: CompactStrings | CompactSameRests, n: CompactStrings): (string | null)[] {
  return 'restsOf' in c ? decodeStrings({ x: c.x, v: n.v }) : decodeStrings(c);
}
