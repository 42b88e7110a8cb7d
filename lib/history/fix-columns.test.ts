import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { HistoryFix } from '@/lib/model';
import { FIX_COLUMNS, FIX_TABLE, fixFromRow, fixValue, type FixRow } from './fix-columns';
import { busFixes } from './schema';

const SQL_TYPE = { int: 'integer', bigint: 'bigint', float8: 'double precision', real: 'real' } as const;

describe('the stored fix column table', () => {
  it('is the schema: the same columns, in the same order, with the same SQL types and nullability', () => {
    const schema = Object.entries(getTableColumns(busFixes)).map(([field, c]) => ({ field, name: c.name, type: c.getSQLType(), nullable: !c.notNull }));
    const table = FIX_COLUMNS.map((c) => ({ field: c.field, name: c.name, type: SQL_TYPE[c.type], nullable: c.read(null) === null }));
    expect(table).toEqual(schema);
    expect(FIX_TABLE).toBe('history_bus_fixes');
  });

  it('reads a row as the driver gives it (bigints as strings, nulls) back into the fix the recorder wrote', () => {
    const fix: HistoryFix = { busId: 7, gpsAt: 1_700_000_000_000, fetchedAt: 1_700_000_002_000, lat: 40.75, lon: -73.98, heading: 90, speedKmh: 21.5, accuracy: null, tripId: 9_000_000_001 };
    const row: FixRow = { ...fix, fixAt: fix.gpsAt! };
    const raw = Object.fromEntries(FIX_COLUMNS.map((c) => [c.name, c.type === 'bigint' ? (fixValue(row, c.field) === null ? null : String(fixValue(row, c.field))) : fixValue(row, c.field)]));
    expect(fixFromRow(raw)).toEqual(fix);
    // fix_at is the key, not a field of the recorded fix.
    expect(fixFromRow(raw)).not.toHaveProperty('fixAt');
  });
});
