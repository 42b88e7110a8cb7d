// The feed's entities written straight to protobuf bytes, the same bytes gtfs-realtime-bindings writes for them
// (wire.test.ts compares the two, field for field and byte for byte). The bindings' Writer keeps one small object per
// field written and per nested message, and with 10,000 buses (200,000 stop time updates) the garbage collector
// spent most of the encode on them. Here a first pass measures every nested message and string, a second writes
// into one buffer of the exact size. The shapes below are the fields build.ts sets, and no other: a field added
// there must be added here (the types will not let it through otherwise).
import type { transit_realtime } from 'gtfs-realtime-bindings';

type VehicleStopStatus = transit_realtime.VehiclePosition.VehicleStopStatus;

export interface WireTrip {
  tripId: string;
  routeId?: string;
  directionId?: number;
  startDate?: string;
  startTime?: string;
}

export interface WireVehicle {
  id: string;
  label?: string;
  licensePlate?: string;
}

export interface WirePosition {
  latitude: number;
  longitude: number;
  bearing?: number;
  speed?: number;
}

export interface WireVehiclePosition {
  trip?: WireTrip;
  vehicle: WireVehicle;
  position: WirePosition;
  currentStopSequence?: number;
  currentStatus?: VehicleStopStatus;
  /** POSIX seconds. */
  timestamp: number;
  stopId?: string;
}

export interface WireStopTimeUpdate {
  stopSequence: number;
  stopId: string;
  arrival: { time: number; uncertainty?: number };
}

export interface WireTripUpdate {
  trip: WireTrip;
  stopTimeUpdate: WireStopTimeUpdate[];
  vehicle?: WireVehicle;
  timestamp: number;
  delay?: number;
}

export type WireEntity = { id: string; vehicle: WireVehiclePosition; tripUpdate?: undefined } | { id: string; tripUpdate: WireTripUpdate; vehicle?: undefined };

/** A value these writers do not write as the bindings would (a fraction, a negative time): the caller falls back to the bindings. */
export class NotWireable extends Error {}

// Tags: (field number << 3) | wire type; every field here is numbered below 16, so every tag is one byte.
const LEN = 2;
const I32 = 5;
const tag = (field: number, wire: number) => (field << 3) | wire;

const TWO_32 = 2 ** 32;

function uint32(v: number): number {
  if (!Number.isInteger(v) || v < 0 || v >= TWO_32) throw new NotWireable(`uint32 ${v}`);
  return v;
}

function int32(v: number): number {
  if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new NotWireable(`int32 ${v}`);
  return v;
}

/** uint64 and int64 from a JS number: a non-negative safe integer (a POSIX time). */
function uint64(v: number): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new NotWireable(`64-bit ${v}`);
  return v;
}

/** UTF-8 bytes of a string, as Buffer.byteLength counts them (a JS loop beats the native call on ids and names). */
function utf8Length(s: string): number {
  const len = s.length;
  if (len > 64) return Buffer.byteLength(s, 'utf8');
  let n = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if ((c & 0xfc00) === 0xd800 && i + 1 < len && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function varintLength(v: number): number {
  if (v < 0) return 10; // int32 below zero: sign-extended to 64 bits, as protobuf writes it
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/**
 * Pass one: the size of every nested message and string, pushed in the order pass two meets them (a message's own
 * size before its fields'). Each function returns the bytes its message's fields take (its body).
 */
class Measure {
  readonly sizes: number[] = [];

  private str(s: string): number {
    const n = utf8Length(s);
    this.sizes.push(n);
    return 1 + varintLength(n) + n;
  }

  private nested(body: number): number {
    return 1 + varintLength(body) + body;
  }

  /** Reserves the slot of a message's size, to fill once its fields are measured. */
  private open(): number {
    this.sizes.push(0);
    return this.sizes.length - 1;
  }

  private close(slot: number, body: number): number {
    this.sizes[slot] = body;
    return this.nested(body);
  }

  trip(t: WireTrip): number {
    const slot = this.open();
    let n = this.str(t.tripId);
    if (t.startTime != null) n += this.str(t.startTime);
    if (t.startDate != null) n += this.str(t.startDate);
    if (t.routeId != null) n += this.str(t.routeId);
    if (t.directionId != null) n += 1 + varintLength(uint32(t.directionId));
    return this.close(slot, n);
  }

  vehicle(v: WireVehicle): number {
    const slot = this.open();
    let n = this.str(v.id);
    if (v.label != null) n += this.str(v.label);
    if (v.licensePlate != null) n += this.str(v.licensePlate);
    return this.close(slot, n);
  }

  position(p: WirePosition): number {
    const slot = this.open();
    const n = 10 + (p.bearing != null ? 5 : 0) + (p.speed != null ? 5 : 0);
    return this.close(slot, n);
  }

  vehiclePosition(vp: WireVehiclePosition): number {
    const slot = this.open();
    let n = 0;
    if (vp.trip != null) n += this.trip(vp.trip);
    n += this.position(vp.position);
    if (vp.currentStopSequence != null) n += 1 + varintLength(uint32(vp.currentStopSequence));
    if (vp.currentStatus != null) n += 1 + varintLength(int32(vp.currentStatus));
    n += 1 + varintLength(uint64(vp.timestamp));
    if (vp.stopId != null) n += this.str(vp.stopId);
    n += this.vehicle(vp.vehicle);
    return this.close(slot, n);
  }

  stopTimeUpdate(u: WireStopTimeUpdate): number {
    const slot = this.open();
    let n = 1 + varintLength(uint32(u.stopSequence));
    const event = this.open();
    let e = 1 + varintLength(uint64(u.arrival.time));
    if (u.arrival.uncertainty != null) e += 1 + varintLength(int32(u.arrival.uncertainty));
    n += this.close(event, e);
    n += this.str(u.stopId);
    return this.close(slot, n);
  }

  tripUpdate(tu: WireTripUpdate): number {
    const slot = this.open();
    let n = this.trip(tu.trip);
    for (const u of tu.stopTimeUpdate) n += this.stopTimeUpdate(u);
    if (tu.vehicle != null) n += this.vehicle(tu.vehicle);
    n += 1 + varintLength(uint64(tu.timestamp));
    if (tu.delay != null) n += 1 + varintLength(int32(tu.delay));
    return this.close(slot, n);
  }

  /** A FeedMessage's entity field (tag, length, body). */
  entity(e: WireEntity): number {
    const slot = this.open();
    let n = this.str(e.id);
    if (e.tripUpdate != null) n += this.tripUpdate(e.tripUpdate);
    if (e.vehicle != null) n += this.vehiclePosition(e.vehicle);
    return this.close(slot, n);
  }
}

/** Pass two: the bytes, each message's length read from pass one's sizes in the same order. */
class Write {
  private pos = 0;
  private next = 0;

  constructor(
    readonly buf: Buffer,
    private readonly sizes: readonly number[],
  ) {}

  get written(): number {
    return this.pos;
  }

  private varint(v: number): void {
    const b = this.buf;
    if (v < 128 && v >= 0) {
      b[this.pos++] = v;
      return;
    }
    if (v < 0) {
      // A negative int32: its 64-bit two's complement, ten bytes.
      let x = BigInt.asUintN(64, BigInt(v));
      while (x >= 128n) {
        b[this.pos++] = Number(x & 127n) | 128;
        x >>= 7n;
      }
      b[this.pos++] = Number(x);
      return;
    }
    while (v >= 128) {
      b[this.pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    b[this.pos++] = v;
  }

  private key(field: number, wire: number): void {
    this.buf[this.pos++] = tag(field, wire);
  }

  private uintField(field: number, v: number): void {
    this.key(field, 0);
    this.varint(v);
  }

  private str(field: number, s: string): void {
    this.key(field, LEN);
    const n = this.sizes[this.next++]!;
    this.varint(n);
    if (n === s.length) {
      // ASCII (every id this feed makes): byte for character.
      const b = this.buf;
      let p = this.pos;
      for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
      this.pos = p;
    } else this.pos += this.buf.write(s, this.pos, n, 'utf8');
  }

  private float(field: number, v: number): void {
    this.key(field, I32);
    this.pos = this.buf.writeFloatLE(v, this.pos);
  }

  private open(field: number): void {
    this.key(field, LEN);
    this.varint(this.sizes[this.next++]!);
  }

  trip(field: number, t: WireTrip): void {
    this.open(field);
    this.str(1, t.tripId);
    if (t.startTime != null) this.str(2, t.startTime);
    if (t.startDate != null) this.str(3, t.startDate);
    if (t.routeId != null) this.str(5, t.routeId);
    if (t.directionId != null) this.uintField(6, t.directionId);
  }

  vehicle(field: number, v: WireVehicle): void {
    this.open(field);
    this.str(1, v.id);
    if (v.label != null) this.str(2, v.label);
    if (v.licensePlate != null) this.str(3, v.licensePlate);
  }

  position(field: number, p: WirePosition): void {
    this.open(field);
    this.float(1, p.latitude);
    this.float(2, p.longitude);
    if (p.bearing != null) this.float(3, p.bearing);
    if (p.speed != null) this.float(5, p.speed);
  }

  vehiclePosition(field: number, vp: WireVehiclePosition): void {
    this.open(field);
    if (vp.trip != null) this.trip(1, vp.trip);
    this.position(2, vp.position);
    if (vp.currentStopSequence != null) this.uintField(3, vp.currentStopSequence);
    if (vp.currentStatus != null) this.uintField(4, vp.currentStatus);
    this.uintField(5, vp.timestamp);
    if (vp.stopId != null) this.str(7, vp.stopId);
    this.vehicle(8, vp.vehicle);
  }

  stopTimeUpdate(field: number, u: WireStopTimeUpdate): void {
    this.open(field);
    this.uintField(1, u.stopSequence);
    this.open(2);
    this.uintField(2, u.arrival.time);
    if (u.arrival.uncertainty != null) this.uintField(3, u.arrival.uncertainty);
    this.str(4, u.stopId);
  }

  tripUpdate(field: number, tu: WireTripUpdate): void {
    this.open(field);
    this.trip(1, tu.trip);
    for (const u of tu.stopTimeUpdate) this.stopTimeUpdate(2, u);
    if (tu.vehicle != null) this.vehicle(3, tu.vehicle);
    this.uintField(4, tu.timestamp);
    if (tu.delay != null) this.uintField(5, tu.delay);
  }

  /** FeedMessage.entity is field 2. */
  entity(e: WireEntity): void {
    this.open(2);
    this.str(1, e.id);
    if (e.tripUpdate != null) this.tripUpdate(3, e.tripUpdate);
    if (e.vehicle != null) this.vehiclePosition(4, e.vehicle);
  }
}

/** The entity fields of a FeedMessage, as FeedMessage.encode writes them; NotWireable for a value it cannot write alike. */
export function writeEntities(entities: readonly WireEntity[]): Uint8Array {
  const m = new Measure();
  let total = 0;
  for (const e of entities) total += m.entity(e);
  const w = new Write(Buffer.allocUnsafe(total), m.sizes);
  for (const e of entities) w.entity(e);
  if (w.written !== total) throw new Error(`GTFS-RT wire: wrote ${w.written} bytes of ${total} measured`);
  return w.buf;
}
