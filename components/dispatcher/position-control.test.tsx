// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PositionControl } from './position-control';

afterEach(cleanup);

describe('PositionControl', () => {
  it('says which positions the map shows, and asks for the other', () => {
    const onChange = vi.fn();
    render(<PositionControl mode="estimates" onChange={onChange} noFixes={false} />);
    const group = screen.getByRole('radiogroup', { name: 'Bus positions' });
    expect(within(group).getByRole('radio', { name: 'Estimated' }).getAttribute('aria-checked')).toBe('true');
    const fixes = within(group).getByRole('radio', { name: 'Last fix' });
    expect(fixes.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(fixes);
    expect(onChange).toHaveBeenCalledWith('fixes');
  });

  it('without GPS fixes (a key without GPS) last fixes cannot be chosen, and the control says why', () => {
    const onChange = vi.fn();
    render(<PositionControl mode="estimates" onChange={onChange} noFixes />);
    const fixes = screen.getByRole('radio', { name: 'Last fix' });
    expect(fixes).toHaveProperty('disabled', true);
    expect(fixes.getAttribute('title')).toBe('No GPS fixes with this key');
    fireEvent.click(fixes);
    expect(onChange).not.toHaveBeenCalled();
  });
});
