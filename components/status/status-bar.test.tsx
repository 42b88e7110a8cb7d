import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { makeLiveHealth, makeVehicle, T0 } from '@/lib/testing/view-factories';
import { StatusBar } from './status-bar';

// The status bar reads the health every viewer gets (LiveHealth): the state, the data's age, the plan level and
// whether it gives positions, the share of the budget spent, the mean fix age; restored data says so.
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('StatusBar with the reduced health', () => {
  it('shows the state, the plan level, the budget as a share, the data age and the mean fix age', () => {
    const html = renderToStaticMarkup(<StatusBar health={makeLiveHealth()} vehicles={[makeVehicle({ gpsAt: T0 - 20_000 })]} now={T0} staleAfterS={120} />);
    const t = text(html);
    expect(t).toContain('Live');
    expect(t).toContain('Plan API Business');
    expect(t).toContain('Budget 59 % of the limit');
    expect(t).toContain('Data updated 1 s ago');
    expect(t).toContain('Mean fix age 20 s');
  });

  it('says a key without positions, and restored data as restored, never as live', () => {
    const noGps = text(renderToStaticMarkup(<StatusBar health={makeLiveHealth({ level: 'standard', locations: false })} vehicles={[]} now={T0} staleAfterS={120} />));
    expect(noGps).toContain('Plan API Standard · no GPS');
    expect(noGps).not.toContain('Mean fix age');
    const restored = text(renderToStaticMarkup(<StatusBar health={makeLiveHealth({ restoredFrom: Date.parse('2026-03-04T09:15:00Z') })} vehicles={[]} now={T0} staleAfterS={120} zone="UTC" />));
    expect(restored).toContain('Restored from 09:15:00');
    expect(restored).not.toMatch(/\bLive\b/);
  });
});
