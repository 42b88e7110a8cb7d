'use client';
import { useId, useState } from 'react';
import type { DelayThresholds } from '@/lib/model';
import { parseThresholdMinutes, sameThresholds, THRESHOLD_MAX, THRESHOLD_MIN } from '@/lib/view/delay-thresholds';

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
  const problemId = problems.length ? `${id}-problem` : undefined;

  return (
    <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <legend className="sr-only">Delay thresholds</legend>
      <MinutesInput
        id={`${id}-late`}
        label="Late at ≥"
        ariaLabel="Late threshold (minutes)"
        unit="min,"
        value={late}
        invalid={!lateParse.ok}
        describedBy={problemId}
        onChange={(v) => update(v, early)}
      />
      <MinutesInput
        id={`${id}-early`}
        label="early at ≤ −"
        ariaLabel="Early threshold (minutes)"
        unit="min"
        value={early}
        invalid={!earlyParse.ok}
        describedBy={problemId}
        onChange={(v) => update(late, v)}
      />
      {!sameThresholds(value, configured) && (
        <button
          type="button"
          className="rounded px-2 py-1 text-sky-700 underline-offset-2 hover:underline dark:text-sky-300"
          onClick={() => update(String(configured.lateMin), String(configured.earlyMin))}
        >
          Reset to configured ({configured.lateMin} / −{configured.earlyMin})
        </button>
      )}
      {problemId && (
        <span id={problemId} role="alert" className="text-red-700 dark:text-red-400">
          {problems.join('. ')}
        </span>
      )}
    </fieldset>
  );
}

interface MinutesInputProps {
  id: string;
  label: string;
  ariaLabel: string;
  unit: string;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: string) => void;
}

/** One threshold: its label, a whole-minute number field, and the unit after it. */
function MinutesInput({ id, label, ariaLabel, unit, value, invalid, describedBy, onChange }: MinutesInputProps) {
  return (
    <>
      <label htmlFor={id} className="text-slate-600 dark:text-slate-300">
        {label}
      </label>
      <input
        id={id}
        aria-label={ariaLabel}
        className={inputClass}
        type="number"
        inputMode="numeric"
        min={THRESHOLD_MIN}
        max={THRESHOLD_MAX}
        step={1}
        value={value}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      <span className="text-slate-600 dark:text-slate-300">{unit}</span>
    </>
  );
}
