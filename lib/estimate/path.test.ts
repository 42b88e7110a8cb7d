import { describe, expect, it } from 'vitest';
import { routeLine } from '@/lib/geo/route-lines';
import type { RouteStop } from '@/lib/model';
import { pathForTrip } from './path';
import { stopsAlong } from '@/lib/testing/estimate-factories';

const vertices = (stops: readonly RouteStop[], direction: string) => {
  const p = pathForTrip(stops, direction);
  if (!p.ok) throw new Error(`no path: ${p.reason}`);
  return Array.from(p.path.line.lon, (lon, i) => [lon, p.path.line.lat[i]!]);
};

describe('the line a bus is estimated along is the line the map draws', () => {
  // Two runs (outbound, inbound) of a route whose stops include every kind the spec allows or a feed sends: no
  // position, NaN, out of range, and a stop_order shared by two stops; listed in no particular order.
  const outbound = stopsAlong([[0, 0], [300, 0], [600, 0], [900, 100], [1200, 100]], { firstOrder: 1, firstId: 100 });
  const inbound = stopsAlong([[1200, 200], [900, 200], [600, 150], [300, 150], [0, 150]], { firstOrder: 6, firstId: 200 });
  outbound[1] = { ...outbound[1]!, latitude: null };
  outbound[2] = { ...outbound[2]!, latitude: 91 };
  inbound[1] = { ...inbound[1]!, longitude: Number.NaN };
  inbound[2] = { ...inbound[2]!, longitude: 181 };
  // Same stop_order as its neighbour: the id decides, in both.
  inbound[4] = { ...inbound[4]!, stopOrder: inbound[3]!.stopOrder };
  const stops = [...inbound, ...outbound].reverse();

  it('each direction runs through the same stops, in the same order, as a stretch of the drawn line', () => {
    const drawn = routeLine(stops).coordinates!;
    const out = vertices(stops, 'outbound');
    const back = vertices(stops, 'inbound');
    expect(out).toEqual(drawn.slice(0, out.length));
    expect(back).toEqual(drawn.slice(out.length));
    expect(out.length + back.length).toBe(drawn.length);
  });

  it('a stop the map cannot draw is not on the estimated line either', () => {
    const out = vertices(stops, 'outbound');
    expect(out).toHaveLength(3);
    expect(out.every(([lon, lat]) => Math.abs(lat!) <= 90 && Math.abs(lon!) <= 180)).toBe(true);
    expect(vertices(stops, 'inbound')).toHaveLength(3);
  });
});
