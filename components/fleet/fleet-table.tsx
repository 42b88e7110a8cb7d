'use client';
import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef } from 'react';
import { busMapHref } from '@/lib/view/dispatcher-url';
import { FLEET_COLUMNS, fleetCells, fleetHeader, type CellContext, type FleetRow, type FleetSortKey, type SortDir } from '@/lib/view/fleet-table';

// Widths in the header's order (fleetHeader: the GPS age follows the GPS time).
const WIDTHS = ['6.5rem', '7rem', '6rem', '7.5rem', '3.5rem', '6rem', '7rem', '4.5rem', '6.5rem', '8.5rem', '6.5rem', '7rem', '10rem'];
const GRID = { gridTemplateColumns: WIDTHS.join(' ') };
const ROW_PX = 34;
const NUMERIC = new Set(['Year', 'Trip']);
const GPS_TONE: Record<string, string> = {
  Fresh: 'text-emerald-800 dark:text-emerald-300',
  Stale: 'text-amber-800 dark:text-amber-300',
  'No fix': 'text-red-800 dark:text-red-300',
  'Never reported': 'text-slate-600 dark:text-slate-300',
};

interface Props {
  rows: readonly FleetRow[];
  cellContext: CellContext;
  sort: FleetSortKey;
  dir: SortDir;
  onSort: (key: FleetSortKey) => void;
}

/**
 * Only the rows in view are in the DOM (10,000 buses stay light); the ARIA table says how many there are and
 * where each drawn row sits. Each row shows exactly fleetCells', the text the CSV export writes. A row opens its
 * bus on the dispatcher's map: a click anywhere on it, or its plate, a link, from the keyboard.
 */
export function FleetTable({ rows, cellContext, sort, dir, onSort }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const router = useRouter();
  // The virtualizer's functions are called during this render only and never handed to a memoized child.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 12 });
  const header = fleetHeader();
  const sortKeyOf = new Map<string, FleetSortKey>(FLEET_COLUMNS.map((c) => [c.label, c.key]));

  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-auto rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900" data-testid="fleet-scroller">
      <div role="table" aria-label="Fleet" aria-rowcount={rows.length + 1} className="min-w-max text-sm">
        <div role="rowgroup" className="sticky top-0 z-10 bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          <div role="row" aria-rowindex={1} className="grid" style={GRID}>
            {header.map((label) => {
              const key = sortKeyOf.get(label);
              const active = key === sort;
              return (
                <div
                  key={label}
                  role="columnheader"
                  aria-sort={key === undefined ? undefined : active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  className={`px-2 py-2 font-medium ${NUMERIC.has(label) ? 'text-right' : 'text-left'}`}
                >
                  {key === undefined ? (
                    label
                  ) : (
                    <button type="button" className="inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-sky-600" onClick={() => onSort(key)}>
                      {label}
                      <span aria-hidden className={`w-3 text-xs ${active ? '' : 'opacity-0'}`}>
                        {dir === 'asc' ? '▲' : '▼'}
                      </span>
                    </button>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const cells = fleetCells(row, cellContext);
            return (
              <div
                key={row.busId}
                role="row"
                aria-rowindex={item.index + 2}
                data-bus-id={row.busId}
                onClick={(e) => {
                  if (!(e.target instanceof Element && e.target.closest('a'))) router.push(busMapHref(row.busId));
                }}
                className="absolute inset-x-0 grid cursor-pointer border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/60"
                style={{ ...GRID, height: item.size, transform: `translateY(${item.start}px)` }}
              >
                {cells.map((text, i) => (
                  <div
                    key={header[i]}
                    role="cell"
                    data-col={header[i]}
                    title={text}
                    className={`truncate px-2 py-1.5 ${NUMERIC.has(header[i]!) ? 'text-right tabular-nums' : ''} ${header[i] === 'GPS' ? `font-medium ${GPS_TONE[text] ?? ''}` : ''}`}
                  >
                    {i === 0 ? (
                      <Link
                        href={busMapHref(row.busId)}
                        aria-label={row.plateNumber === null ? `Bus ${row.busId}, no plate: open on the map` : undefined}
                        className="font-semibold text-sky-800 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-300"
                      >
                        {text}
                      </Link>
                    ) : (
                      text
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
      {rows.length === 0 && <p className="p-4 text-sm text-slate-600 dark:text-slate-300">No bus matches.</p>}
    </div>
  );
}
