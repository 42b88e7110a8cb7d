'use client';
import type { RouteDelayRow, RouteSortKey, SortDirection } from '@/lib/view/delays';
import { DELAY_COLUMNS } from '@/lib/view/delay-table';

interface Props {
  rows: readonly RouteDelayRow[];
  sortKey: RouteSortKey;
  sortDir: SortDirection;
  onSort: (key: RouteSortKey) => void;
  /** Columns after the delay columns, not sortable (the period board's regularity columns). */
  extraColumns?: readonly { key: string; label: string; description: string; cell: (row: RouteDelayRow) => string }[];
}

/** Renders exactly DELAY_COLUMNS' cells (and the extra columns'), the same text the CSV export writes. */
export function RouteDelayTable({ rows, sortKey, sortDir, onSort, extraColumns = [] }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <table aria-label="Delays per route" className="w-full border-collapse text-sm">
        <thead className="sticky top-0 bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          <tr>
            {DELAY_COLUMNS.map((c) => {
              const active = c.key === sortKey;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sortDir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  className={`px-3 py-2 font-medium ${c.numeric ? 'text-right' : 'text-left'}`}
                >
                  <button
                    type="button"
                    title={c.description}
                    className="inline-flex items-center gap-1 rounded hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:text-white"
                    onClick={() => onSort(c.key)}
                  >
                    {c.label}
                    <span aria-hidden className={`w-3 text-xs ${active ? '' : 'opacity-0'}`}>
                      {sortDir === 'asc' ? '▲' : '▼'}
                    </span>
                  </button>
                </th>
              );
            })}
            {extraColumns.map((c) => (
              <th key={c.key} scope="col" title={c.description} className="px-3 py-2 text-right font-medium">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/60">
              {DELAY_COLUMNS.map((c, i) =>
                i === 0 ? (
                  <th key={c.key} scope="row" className="px-3 py-1.5 text-left font-semibold">
                    <span data-cell>{c.cell(r)}</span>
                    {r.routeName && r.routeName !== r.label && (
                      <span className="ml-2 font-normal text-slate-500 dark:text-slate-400">
                        {r.routeName}
                      </span>
                    )}
                  </th>
                ) : (
                  <td key={c.key} className="px-3 py-1.5 text-right tabular-nums">
                    {c.cell(r)}
                  </td>
                ),
              )}
              {extraColumns.map((c) => (
                <td key={c.key} className="px-3 py-1.5 text-right tabular-nums">
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={DELAY_COLUMNS.length + extraColumns.length} className="px-3 py-6 text-center text-slate-600 dark:text-slate-400">
                No active trips match the filters.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
