import { describe, expect, it } from 'vitest';
import type { Vehicle } from '@/lib/model';
import { placeBuses, RecentFixes, type BusPlacement } from '@/lib/placement/bus-placement';
import { makeVehicle, T0 } from '@/lib/testing/view-factories';
import { FLOATS_PER_BUS, INSTANCE_LAYOUT, type InstanceBuffer } from './bus-overlay-gl';
import { BusInstances } from './bus-overlay-instances';

/** Records what would go to the GPU. */
class FakeBuffer {
  capacity = 0;
  whole = 0;
  slots: number[] = [];
  last: Float32Array = new Float32Array(0);
  uploadAll(data: Float32Array) {
    this.whole++;
    this.capacity = Math.max(this.capacity, data.length);
    this.last = data.slice();
  }
  uploadSlot(_: Float32Array, slot: number) {
    this.slots.push(slot);
  }
  fits(floats: number) {
    return floats <= this.capacity;
  }
  get gl() {
    return this as unknown as InstanceBuffer;
  }
}

const bus = (busId: number, over: Partial<Vehicle> = {}) => makeVehicle({ busId, lon: -73.98 + busId * 0.001, lat: 40.75, gpsAt: T0 - 5_000, trip: null, ...over });

function place(vehicles: Vehicle[]): BusPlacement[] {
  return placeBuses(vehicles, { mode: 'fixes', stopsByRoute: new Map(), recent: new RecentFixes(), now: T0, staleAfterS: 120 });
}

function setup() {
  return { inst: new BusInstances(), fleet: new FakeBuffer(), chosen: new FakeBuffer() };
}

const shown = (data: Float32Array, slot: number) => data[slot * FLOATS_PER_BUS + INSTANCE_LAYOUT.style + 3];

describe('BusInstances, the overlay’s instance buffer', () => {
  it('a first update uploads the whole buffer; then only the buses whose placement changed go up', () => {
    const { inst, fleet, chosen } = setup();
    const buses = Array.from({ length: 20 }, (_, i) => bus(i + 1));
    inst.update(place(buses), null, T0);
    inst.flush(fleet.gl, chosen.gl);
    expect(fleet.whole).toBe(1);
    expect(inst.count).toBe(20);
    // Bus 5 moved; the other 19 are placed again, unchanged.
    inst.update(place(buses.map((b) => (b.busId === 5 ? { ...b, lon: b.lon! + 0.001, gpsAt: T0 - 1_000 } : b))), null, T0);
    inst.flush(fleet.gl, chosen.gl);
    expect(fleet.whole).toBe(1);
    expect(fleet.slots).toEqual([4]);
  });

  it('more changed buses than an eighth of the fleet go up as one upload', () => {
    const { inst, fleet, chosen } = setup();
    const buses = Array.from({ length: 16 }, (_, i) => bus(i + 1));
    inst.update(place(buses), null, T0);
    inst.flush(fleet.gl, chosen.gl);
    inst.update(place(buses.map((b) => (b.busId <= 3 ? { ...b, lat: b.lat! + 0.001 } : b))), null, T0);
    inst.flush(fleet.gl, chosen.gl);
    expect(fleet.slots).toEqual([]);
    expect(fleet.whole).toBe(2);
  });

  it('a bus that leaves frees its slot, hidden, and the next new bus takes it', () => {
    const { inst, fleet, chosen } = setup();
    const buses = Array.from({ length: 16 }, (_, i) => bus(i + 1));
    inst.update(place(buses), null, T0);
    inst.flush(fleet.gl, chosen.gl);
    expect(shown(fleet.last, 1)).toBe(1);
    const without2 = buses.filter((b) => b.busId !== 2);
    inst.update(place(without2), null, T0);
    expect(inst.count).toBe(15);
    inst.flush(fleet.gl, chosen.gl);
    expect(fleet.slots).toEqual([1]);
    // What the GPU now holds for the freed slot (the whole buffer read back): not drawn.
    const readBack = new FakeBuffer();
    inst.invalidate();
    inst.flush(readBack.gl, chosen.gl);
    expect(shown(readBack.last, 1)).toBe(0);
    inst.update(place([...without2, bus(99)]), null, T0);
    expect(inst.slotCount).toBe(16);
    const slotOf = new Map<number, number>();
    inst.forEachBus((s, i) => slotOf.set(s.placement.busId, i));
    expect(slotOf.get(99)).toBe(1);
  });

  it('the selected bus has its own instance, out of the fleet’s, and back when deselected', () => {
    const inst = new BusInstances();
    const placements = place([bus(1), bus(2), bus(3)]);
    inst.update(placements, 2, T0);
    expect(inst.selected?.placement.busId).toBe(2);
    expect(inst.count).toBe(2);
    const ids: number[] = [];
    inst.forEachBus((s) => ids.push(s.placement.busId));
    expect(ids.sort()).toEqual([1, 3]);
    inst.update(placements, null, T0);
    expect(inst.selected).toBeNull();
    expect(inst.count).toBe(3);
  });

  it('a new theme writes every bus again (colours live in the instances)', () => {
    const { inst, fleet, chosen } = setup();
    const placements = place([bus(1), bus(2), bus(3), bus(4), bus(5), bus(6), bus(7), bus(8), bus(9)]);
    inst.update(placements, null, T0);
    inst.flush(fleet.gl, chosen.gl);
    const light = fleet.last.slice();
    inst.setTheme('dark');
    inst.update(placements, null, T0);
    inst.flush(fleet.gl, chosen.gl);
    expect(fleet.whole).toBe(2);
    expect(fleet.last[INSTANCE_LAYOUT.color]).not.toBe(light[INSTANCE_LAYOUT.color]);
  });

  it('screenOf puts a bus where the camera puts its position', () => {
    const inst = new BusInstances();
    inst.update(place([bus(1), bus(2)]), null, T0);
    const origin = inst.origin!;
    const cam = { zoom: 14, world: 512 * 2 ** 14, originPx: [100, 200] as [number, number], origin, mPerPx: 1 };
    // Bus 1 is the origin (the fleet's first bus).
    expect(inst.screenOf(0, T0, cam)).toEqual([100, 200]);
    const [x, y] = inst.screenOf(1, T0, cam);
    expect(x).toBeGreaterThan(100);
    expect(y).toBeCloseTo(200, 3);
  });
});
