import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { HistoryFix } from '@/lib/model';

// The stored fix's columns, once: name, SQL type, and how a value goes in (the getter) and comes back (the reader).
// The bulk insert (writes.ts), the select list and the one row-to-fix function (fixFromRow, used by warm.ts and
// queries.ts) are all made from this table; schema.ts declares the same columns for migrations, and
// fix-columns.test.ts holds the two equal. Adding a field to a recorded fix: the field on HistoryFix
// (lib/model/history.ts, which the feed's FixEvent is), its column in schema.ts, one line here, a migration.

/** A fix as the recorder writes it: the recorded fix, and the key a repeated fix collides on. */
export interface FixRow extends HistoryFix {
  /** The GPS time, or the fetched time for a fix without one. */
  fixAt: number;
}

export type FixSqlType = 'int' | 'bigint' | 'float8' | 'real';

interface FixColumn<K extends keyof FixRow> {
  field: K;
  name: string;
  type: FixSqlType;
  /** From the driver's value (bigints may come as strings, nulls as null) to the fix's. */
  read: (raw: unknown) => FixRow[K];
}

const number = (v: unknown): number => Number(v);
const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function column<K extends keyof FixRow>(field: K, name: string, type: FixSqlType, read: (raw: unknown) => FixRow[K]): FixColumn<K> {
  return { field, name, type, read };
}

export const FIX_TABLE = 'history_bus_fixes';

export const FIX_COLUMNS = [
  column('busId', 'bus_id', 'int', number),
  column('fixAt', 'fix_at', 'bigint', number),
  column('gpsAt', 'gps_at', 'bigint', numberOrNull),
  column('fetchedAt', 'fetched_at', 'bigint', number),
  column('lat', 'lat', 'float8', number),
  column('lon', 'lon', 'float8', number),
  column('heading', 'heading', 'real', numberOrNull),
  column('speedKmh', 'speed_kmh', 'real', numberOrNull),
  column('accuracy', 'accuracy', 'real', numberOrNull),
  column('tripId', 'trip_id', 'bigint', numberOrNull),
] as const;

/** The columns a recorded fix is read from (fix_at is the key only). */
const READ_COLUMNS = FIX_COLUMNS.filter((c) => c.field !== 'fixAt');

/** The getter: a row's value for one column (an absent optional value is stored as NULL). */
export function fixValue(row: FixRow, field: keyof FixRow): number | null {
  return row[field] ?? null;
}

/** `alias.bus_id, alias.gps_at, …`: the select list of a recorded fix. */
export function fixSelectList(alias: string): SQL {
  return sql.raw(READ_COLUMNS.map((c) => `${alias}.${c.name}`).join(', '));
}

/** A stored row (the driver's, by column name) as the recorded fix: the one place a fix is read back. */
export function fixFromRow(raw: Readonly<Record<string, unknown>>): HistoryFix {
  const fix = {} as Record<keyof HistoryFix, number | null>;
  for (const c of READ_COLUMNS) fix[c.field as keyof HistoryFix] = c.read(raw[c.name]);
  return fix as HistoryFix;
}
