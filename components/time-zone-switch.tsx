'use client';
import { useDisplayZone, useZoneChoice } from '@/lib/client/use-display-zone';
import { isZoneChoice } from '@/lib/view/display-zone';

/** Agency time (the default, the timetable's) or this browser's; remembered in this browser. */
export function TimeZoneSwitch({ agencyZone }: { agencyZone: string | null }) {
  const [choice, setChoice] = useZoneChoice();
  const browser = useDisplayZone(null).name;
  return (
    <label className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
      <span>Times</span>
      <select
        value={choice}
        onChange={(e) => isZoneChoice(e.target.value) && setChoice(e.target.value)}
        className="h-8 max-w-56 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <option value="agency">Agency ({agencyZone ?? 'not known yet'})</option>
        <option value="browser">This browser ({browser})</option>
      </select>
    </label>
  );
}
