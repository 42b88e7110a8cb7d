// The bus overlay's instance buffer on the CPU: one slot per bus (and one for the selected bus, drawn in passes of
// its own), each holding the key the GPU moves it along (lib/view/bus-keyframes). New placements write only the
// slots whose signature changed, and flush() uploads only the slots written since the last frame. No GL calls but
// through the InstanceBuffers it is handed, so it runs (and is tested) without a GPU.
import { placementSignature, keyAt, mercator, type Key } from '@/lib/view/bus-keyframes';
import type { BusPlacement } from '@/lib/placement/bus-placement';
import { DELAY_COLORS } from '@/lib/view/delay-palette';
import type { Theme } from '@/lib/theme/theme';
import { BASIS_CODE, FLOATS_PER_BUS, INSTANCE_LAYOUT, type InstanceBuffer } from './bus-overlay-gl';

/** More changed buses than this share of the fleet: one upload of the whole buffer beats many small ones. */
const WHOLE_UPLOAD_SHARE = 1 / 8;

/** Where the overlay's world is on screen: what turns an instance's position into CSS pixels. */
export interface OverlayCamera {
  zoom: number;
  /** World size in CSS px at this zoom (512 · 2^zoom). */
  world: number;
  /** Where `origin` is on screen (CSS px). */
  originPx: [number, number];
  /** Web Mercator of the point instance positions are measured from. */
  origin: [number, number];
  mPerPx: number;
}

export interface Slot {
  placement: BusPlacement;
  signature: string;
  key: Key;
}

export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

export class BusInstances {
  /** The CPU mirror of the fleet's instance buffer; slot i at i · FLOATS_PER_BUS. */
  private data = new Float32Array(FLOATS_PER_BUS * 256);
  private readonly chosenData = new Float32Array(FLOATS_PER_BUS);
  private readonly slots: (Slot | null)[] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly dirty = new Set<number>();
  private wholeDirty = true;
  private selectedSlot: Slot | null = null;
  /** Server time of instant 0 on the GPU (float32 seconds from here keep a few ms for weeks). */
  private epoch = 0;
  /** Web Mercator of the point instance positions are measured from (the fleet's first bus). */
  private originAt: [number, number] | null = null;
  /** The soonest instant a key runs out, and the fastest bus's speed: what the frame scheduler needs. */
  nextRenewAt = Infinity;
  fastestMps = 0;
  private theme: Theme = 'light';

  get origin(): [number, number] | null {
    return this.originAt;
  }

  /** Buses in the fleet's slots (the selected one not counted). */
  get count() {
    return this.slotOf.size;
  }

  /** Slots in use or freed (how many the GPU draws over). */
  get slotCount() {
    return this.slots.length;
  }

  get selected(): Slot | null {
    return this.selectedSlot;
  }

  /** Colours live in the instances: a new theme writes every bus again. */
  setTheme(theme: Theme) {
    this.theme = theme;
    for (const s of this.slots) if (s) s.signature = '';
    if (this.selectedSlot) this.selectedSlot.signature = '';
  }

  /** The GPU's time of a server instant (s since the epoch). */
  gpuTime(serverMs: number) {
    return (serverMs - this.epoch) / 1000;
  }

  /** New placements at server time `serverNow`: only buses whose signature changed are written. */
  update(placements: readonly BusPlacement[], selectedBusId: number | null, serverNow: number) {
    if (this.epoch === 0) this.epoch = serverNow;
    if (!this.originAt && placements.length > 0) this.originAt = mercator(placements[0]!.estimate.lon, placements[0]!.estimate.lat);
    const seen = new Set<number>();
    let selected: BusPlacement | null = null;
    for (const p of placements) {
      if (p.busId === selectedBusId) {
        selected = p;
        continue;
      }
      seen.add(p.busId);
      let i = this.slotOf.get(p.busId);
      if (i === undefined) {
        i = this.free.pop() ?? this.slots.length;
        this.slotOf.set(p.busId, i);
        if (i === this.slots.length) this.slots.push(null);
      }
      const slot = this.slots[i];
      // The same placement (the page's cache kept it) draws the same: nothing to compare or write.
      if (slot && slot.placement === p && slot.signature !== '') continue;
      const signature = placementSignature(p);
      if (slot && slot.signature === signature) {
        slot.placement = p;
        continue;
      }
      const key = keyAt(p.estimate, serverNow);
      this.slots[i] = { placement: p, signature, key };
      this.write(this.ensureCapacity(i), i, p, key);
    }
    for (const [busId, i] of this.slotOf) {
      if (seen.has(busId)) continue;
      this.slotOf.delete(busId);
      this.slots[i] = null;
      this.free.push(i);
      this.data[i * FLOATS_PER_BUS + INSTANCE_LAYOUT.style + 3] = 0;
      this.markDirty(i);
    }
    if (selected) {
      const signature = placementSignature(selected);
      const held = this.selectedSlot;
      if (!held || held.signature !== signature || held.placement.busId !== selected.busId) {
        const key = keyAt(selected.estimate, serverNow);
        this.selectedSlot = { placement: selected, signature, key };
        this.write(this.chosenData, 0, selected, key);
      } else held.placement = selected;
    } else this.selectedSlot = null;
    this.recomputeRenewal();
  }

  private ensureCapacity(slot: number): Float32Array {
    const need = (slot + 1) * FLOATS_PER_BUS;
    if (need > this.data.length) {
      const grown = new Float32Array(Math.max(need, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
      this.wholeDirty = true;
    }
    return this.data;
  }

  private markDirty(slot: number) {
    if (!this.wholeDirty) this.dirty.add(slot);
  }

  private write(target: Float32Array, slot: number, p: BusPlacement, key: Key) {
    const o = slot * FLOATS_PER_BUS;
    const origin = this.originAt ?? [0, 0];
    target[o + INSTANCE_LAYOUT.path] = key.from[0] - origin[0];
    target[o + INSTANCE_LAYOUT.path + 1] = key.from[1] - origin[1];
    target[o + INSTANCE_LAYOUT.path + 2] = key.to[0] - origin[0];
    target[o + INSTANCE_LAYOUT.path + 3] = key.to[1] - origin[1];
    target[o + INSTANCE_LAYOUT.time] = (key.fromAt - this.epoch) / 1000;
    target[o + INSTANCE_LAYOUT.time + 1] = (key.toAt - this.epoch) / 1000;
    target[o + INSTANCE_LAYOUT.time + 2] = key.radiusFrom;
    target[o + INSTANCE_LAYOUT.time + 3] = key.radiusTo;
    const [r, g, b] = rgb(DELAY_COLORS[this.theme][p.cls]);
    target.set([r, g, b, 1], o + INSTANCE_LAYOUT.color);
    target.set([BASIS_CODE[p.estimate.basis], p.stale ? 1 : 0, key.heading === null || !Number.isFinite(key.heading) ? -1 : ((key.heading % 360) + 360) % 360, 1], o + INSTANCE_LAYOUT.style);
    if (target === this.data) this.markDirty(slot);
  }

  private recomputeRenewal() {
    let next = Infinity;
    let fastest = 0;
    for (const s of this.slots) {
      if (!s) continue;
      if (s.key.renewAt !== null && s.key.renewAt < next) next = s.key.renewAt;
      if (s.key.speedMps > fastest) fastest = s.key.speedMps;
    }
    const sel = this.selectedSlot;
    if (sel) {
      if (sel.key.renewAt !== null) next = Math.min(next, sel.key.renewAt);
      fastest = Math.max(fastest, sel.key.speedMps);
    }
    this.nextRenewAt = next;
    this.fastestMps = fastest;
  }

  /** Buses whose key ran out by server time `now` (they reached a stop, or their radius moved on) get the next one. */
  renewKeys(now: number) {
    if (now < this.nextRenewAt) return;
    this.slots.forEach((s, i) => {
      if (s && s.key.renewAt !== null && s.key.renewAt <= now) {
        s.key = keyAt(s.placement.estimate, now);
        this.write(this.data, i, s.placement, s.key);
      }
    });
    const sel = this.selectedSlot;
    if (sel && sel.key.renewAt !== null && sel.key.renewAt <= now) {
      sel.key = keyAt(sel.placement.estimate, now);
      this.write(this.chosenData, 0, sel.placement, sel.key);
    }
    this.recomputeRenewal();
  }

  /** The GL buffers were made anew (a lost context came back): everything goes up again. */
  invalidate() {
    this.wholeDirty = true;
  }

  /** Uploads what changed since the last flush: the written slots, or the whole buffer when that is cheaper. */
  flush(fleet: InstanceBuffer, chosen: InstanceBuffer) {
    const used = this.slots.length * FLOATS_PER_BUS;
    if (this.wholeDirty || !fleet.fits(used) || this.dirty.size > this.slots.length * WHOLE_UPLOAD_SHARE) {
      fleet.uploadAll(this.data.subarray(0, Math.max(used, FLOATS_PER_BUS)));
    } else for (const i of this.dirty) fleet.uploadSlot(this.data, i);
    this.dirty.clear();
    this.wholeDirty = false;
    chosen.uploadAll(this.chosenData);
  }

  /** Where a fleet slot's bus (or the selected bus: slot null) is on screen at server time `now` (CSS px), as the vertex shader puts it. */
  screenOf(slot: number | null, now: number, cam: OverlayCamera): [number, number] {
    const data = slot === null ? this.chosenData : this.data;
    const o = (slot ?? 0) * FLOATS_PER_BUS;
    const t = this.gpuTime(now);
    const t0 = data[o + INSTANCE_LAYOUT.time]!;
    const t1 = data[o + INSTANCE_LAYOUT.time + 1]!;
    const k = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
    const x = data[o]! + (data[o + 2]! - data[o]!) * k;
    const y = data[o + 1]! + (data[o + 3]! - data[o + 1]!) * k;
    return [cam.originPx[0] + x * cam.world, cam.originPx[1] + y * cam.world];
  }

  /** Each bus of the fleet (not the selected one) with its slot. */
  forEachBus(visit: (s: Slot, slot: number) => void) {
    this.slots.forEach((s, i) => {
      if (s) visit(s, i);
    });
  }
}
