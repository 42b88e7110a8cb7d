'use client';
import { useId, useState } from 'react';
import type { DelayThresholds } from '@/lib/model';
import { parseThresholdMinutes, sameThresholds, THRESHOLD_MAX, THRESHOLD_MIN } from '@/lib/stats/thresholds';

interface Props {
  value: DelayThresholds;
  configured: DelayThresholds;
  onChange: (t: DelayThresholds) => void;
}

const inputClass =
  'w-16 rounded border border-slate-300 bg-white px-2 py-1 text-right tabular-nums dark:border-slate-600 dark:bg-slate-900 aria-[invalid=true]:border-red-600';

/** Late and early thresholds, editable; the board's figures, charts and CSV all follow them. */
export function ThresholdControls({ value, configured, onChange }: Props) {
  const id = useId();
  // Drafts keep what is typed (possibly invalid) apart from the thresholds in force.
  const [late, setLate] = useState(String(value.lateMin));
  const [early, setEarly] = useState(String(value.earlyMin));
  const [shown, setShown] = useState(value);
  if (!sameThresholds(shown, value)) {
    // The thresholds changed from outside (reset, or the configuration arrived): show them.
    setShown(value);
    setLate(String(value.lateMin));
    setEarly(String(value.earlyMin));
  }
  const lateParse = parseThresholdMinutes(late, 'late');
  const earlyParse = parseThresholdMinutes(early, 'early');

  const update = (nextLate: string, nextEarly: string) => {
    setLate(nextLate);
    setEarly(nextEarly);
    const l = parseThresholdMinutes(nextLate, 'late');
    const e = parseThresholdMinutes(nextEarly, 'early');
    if (l.ok && e.ok) {
      const next = { lateMin: l.value, earlyMin: e.value };
      setShown(next);
      onChange(next);
    }
  };
  const problems = [lateParse, earlyParse].flatMap((p) => (p.ok ? [] : [p.message]));

  return (
    <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <legend className="sr-only">Delay thresholds</legend>
      <label htmlFor={`${id}-late`} className="text-slate-600 dark:text-slate-300">
        Late at ≥
      </label>
      <input
        id={`${id}-late`}
        aria-label="Late threshold (minutes)"
        className={inputClass}
        type="number"
        inputMode="numeric"
        min={THRESHOLD_MIN}
        max={THRESHOLD_MAX}
        step={1}
        value={late}
        aria-invalid={!lateParse.ok}
        aria-describedby={problems.length ? `${id}-problem` : undefined}
        onChange={(e) => update(e.target.value, early)}
      />
      <span className="text-slate-600 dark:text-slate-300">min,</span>
      <label htmlFor={`${id}-early`} className="text-slate-600 dark:text-slate-300">
        early at ≤ −
      </label>
      <input
        id={`${id}-early`}
        aria-label="Early threshold (minutes)"
        className={inputClass}
        type="number"
        inputMode="numeric"
        min={THRESHOLD_MIN}
        max={THRESHOLD_MAX}
        step={1}
        value={early}
        aria-invalid={!earlyParse.ok}
        aria-describedby={problems.length ? `${id}-problem` : undefined}
        onChange={(e) => update(late, e.target.value)}
      />
      <span className="text-slate-600 dark:text-slate-300">min</span>
      {!sameThresholds(value, configured) && (
        <button
          type="button"
          className="rounded px-2 py-1 text-sky-700 underline-offset-2 hover:underline dark:text-sky-300"
          onClick={() => update(String(configured.lateMin), String(configured.earlyMin))}
        >
          Reset to configured ({configured.lateMin} / −{configured.earlyMin})
        </button>
      )}
      {problems.length > 0 && (
        <span id={`${id}-problem`} role="alert" className="text-red-700 dark:text-red-400">
          {problems.join('. ')}
        </span>
      )}
    </fieldset>
  );
}
