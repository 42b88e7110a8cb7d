'use client';
import type { PositionMode } from '@/lib/placement/bus-placement';

const OPTIONS: { mode: PositionMode; label: string; title: string }[] = [
  { mode: 'estimates', label: 'Estimated', title: 'Each bus where it most likely is now: its last fix advanced along its route, or its schedule' },
  { mode: 'fixes', label: 'Last fix', title: 'Each bus where its last GPS fix put it, however old' },
];

/** Estimates or last fixes on the map (kept in the URL as `pos`). Without GPS there are no fixes to show. */
export function PositionControl({ mode, onChange, noFixes }: { mode: PositionMode; onChange: (mode: PositionMode) => void; noFixes: boolean }) {
  return (
    <div role="radiogroup" aria-label="Bus positions" className="inline-flex overflow-hidden rounded-md border border-slate-300 bg-white/95 text-xs font-medium shadow-sm dark:border-slate-600 dark:bg-slate-900/95">
      {OPTIONS.map((o) => {
        const checked = mode === o.mode;
        const disabled = o.mode === 'fixes' && noFixes;
        return (
          <button
            key={o.mode}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={disabled}
            title={disabled ? 'No GPS fixes with this key' : o.title}
            onClick={() => onChange(o.mode)}
            className={`px-2.5 py-1.5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 ${
              checked ? 'bg-blue-700 text-white dark:bg-blue-400 dark:text-slate-950' : 'text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800'
            }`}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
