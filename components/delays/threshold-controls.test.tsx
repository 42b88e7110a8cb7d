// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DelayThresholds } from '@/lib/model';
import { ThresholdControls } from './threshold-controls';

afterEach(cleanup);

const CONFIGURED: DelayThresholds = { lateMin: 5, earlyMin: 1 };

/** The controls as the board holds them: the thresholds in force in state, every change recorded. */
function Board({ start = CONFIGURED, changes }: { start?: DelayThresholds; changes: DelayThresholds[] }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <ThresholdControls
        value={value}
        configured={CONFIGURED}
        onChange={(t) => {
          changes.push(t);
          setValue(t);
        }}
      />
      <button type="button" onClick={() => setValue({ lateMin: 9, earlyMin: 4 })}>
        outside
      </button>
    </>
  );
}

const late = () => screen.getByRole('spinbutton', { name: 'Late threshold (minutes)' }) as HTMLInputElement;
const early = () => screen.getByRole('spinbutton', { name: 'Early threshold (minutes)' }) as HTMLInputElement;

describe('ThresholdControls', () => {
  it('a valid threshold takes effect at once; the configured ones need no reset', () => {
    const changes: DelayThresholds[] = [];
    render(<Board changes={changes} />);
    expect(screen.queryByRole('button', { name: /Reset to configured/ })).toBeNull();
    fireEvent.change(late(), { target: { value: '7' } });
    expect(changes).toEqual([{ lateMin: 7, earlyMin: 1 }]);
    expect(screen.getByRole('button', { name: 'Reset to configured (5 / −1)' })).toBeTruthy();
  });

  it('an invalid value is kept as typed, marked, explained, and changes nothing in force', () => {
    const changes: DelayThresholds[] = [];
    render(<Board changes={changes} />);
    fireEvent.change(early(), { target: { value: '0' } });
    expect(early().value).toBe('0');
    expect(early().getAttribute('aria-invalid')).toBe('true');
    expect(late().getAttribute('aria-invalid')).toBe('false');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Early threshold must be between 1 and 1440 minutes');
    expect(early().getAttribute('aria-describedby')).toBe(alert.id);
    fireEvent.change(late(), { target: { value: '' } });
    expect(screen.getByRole('alert').textContent).toBe('Late threshold must be a whole number of minutes. Early threshold must be between 1 and 1440 minutes');
    expect(changes).toEqual([]);
    // Fixing both puts the new pair in force together.
    fireEvent.change(early(), { target: { value: '2' } });
    expect(changes).toEqual([]);
    fireEvent.change(late(), { target: { value: '6' } });
    expect(changes).toEqual([{ lateMin: 6, earlyMin: 2 }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reset puts the configured thresholds back, in force and in the fields', () => {
    const changes: DelayThresholds[] = [];
    render(<Board start={{ lateMin: 8, earlyMin: 3 }} changes={changes} />);
    expect(late().value).toBe('8');
    fireEvent.click(screen.getByRole('button', { name: 'Reset to configured (5 / −1)' }));
    expect(changes).toEqual([CONFIGURED]);
    expect(late().value).toBe('5');
    expect(early().value).toBe('1');
    expect(screen.queryByRole('button', { name: /Reset to configured/ })).toBeNull();
  });

  it('thresholds changed from outside replace what the fields show', () => {
    render(<Board changes={[]} />);
    fireEvent.change(late(), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'outside' }));
    expect(late().value).toBe('9');
    expect(early().value).toBe('4');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
