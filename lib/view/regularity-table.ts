// The delay board's headway-regularity columns over a period (/api/history/routes' `regularity`): one formatting
// function per column, used by the rendered table AND the CSV, as DELAY_COLUMNS are. A route whose days were all
// recorded before the derivation existed shows "not derived" in every column, never a zero.
import type { HistoryRegularity } from '@/lib/model';
import { formatMinutes, formatShare, NO_VALUE } from './delay-table';

export const NOT_DERIVED = 'not derived';

export interface RegularityColumn {
  key: 'samples' | 'cvH' | 'awtS' | 'swtS' | 'ewtS' | 'bunchedShare' | 'gappedShare' | 'ghostTripMinutes';
  label: string;
  description: string;
  cell: (row: { regularity?: HistoryRegularity }) => string;
}

/** Seconds shown as minutes with one decimal (waits are read in minutes). */
const waitMinutes = (s: number | null) => formatMinutes(s === null ? null : s / 60);

function column(key: RegularityColumn['key'], label: string, description: string, format: (v: number | null) => string): RegularityColumn {
  return { key, label, description, cell: ({ regularity: r }) => (!r || r.derivation === 'not-derived' ? NOT_DERIVED : format(r[key])) };
}

export const REGULARITY_COLUMNS: readonly RegularityColumn[] = [
  column('samples', 'Headways', 'Headway samples: consecutive passings at a stop, from the recorded fixes', (v) => (v === null ? NO_VALUE : String(v))),
  column('cvH', 'cv_h', 'Coefficient of variation of the headways, σ / mean', (v) => (v === null ? NO_VALUE : v.toFixed(2))),
  column('awtS', 'AWT', 'Average wait Σh² / (2 Σh), minutes', waitMinutes),
  column('swtS', 'SWT', 'Scheduled wait, the same over the scheduled headways, minutes', waitMinutes),
  column('ewtS', 'EWT', 'Excess wait AWT − SWT, minutes', waitMinutes),
  column('bunchedShare', 'Bunched', 'Share of headways at or below the bunched ratio of the scheduled one', formatShare),
  column('gappedShare', 'Gapped', 'Share of headways at or above the gapped ratio of the scheduled one', formatShare),
  column('ghostTripMinutes', 'Ghost trip-min', 'Minutes trips ran as ghosts (no bus, or not located)', (v) => formatMinutes(v)),
];

/** A note for the period when some of its days were recorded before the derivation: their headways are not in the figures. */
export function describeDerivation(days: readonly { date: string; regularity: HistoryRegularity }[]): string | null {
  const missing = days.filter((d) => d.regularity.derivation === 'not-derived').map((d) => d.date);
  if (missing.length === 0) return null;
  if (missing.length === days.length) return 'Headways not derived for these service days: they were recorded before Fleetmap derived headways.';
  return `Headways not derived for ${missing.length} of ${days.length} service days (${missing[0]}${missing.length > 1 ? ` … ${missing[missing.length - 1]}` : ''}): recorded before Fleetmap derived headways; the figures cover the other days.`;
}
