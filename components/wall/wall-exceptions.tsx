'use client';
// The wall's open exceptions, counted by rule (lib/exceptions): a room sees that something needs a dispatcher
// without reading a list. The counts change in place; nothing flashes.
import { useQuery } from '@tanstack/react-query';
import { exceptionsQuery } from '@/lib/client/queries';
import { EXCEPTION_RULES } from '@/lib/model';
import { RULE_LABELS } from '@/lib/view/exceptions';

export function WallExceptions() {
  const { data } = useQuery(exceptionsQuery());
  if (!data) return null;
  const rules = EXCEPTION_RULES.filter((r) => (data.countsByRule[r] ?? 0) > 0);
  return (
    <section aria-label="Open exceptions" className="rounded-xl bg-slate-100 px-5 py-4 dark:bg-slate-900">
      <h2 className="text-2xl text-slate-600 dark:text-slate-300">Open exceptions</h2>
      {rules.length === 0 ? (
        <p className="mt-1 text-2xl text-slate-600 dark:text-slate-400">None</p>
      ) : (
        <ul className="mt-1 grid grid-cols-2 gap-x-4 text-2xl">
          {rules.map((r) => (
            <li key={r} aria-label={`${RULE_LABELS[r]}: ${data.countsByRule[r]}`} className="flex justify-between tabular-nums">
              <span>{RULE_LABELS[r]}</span>
              <span className="font-semibold">{data.countsByRule[r]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
