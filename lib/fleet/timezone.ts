import 'server-only';
import { describeTimeRule, offsetMinutesAt, type TimeRule } from '@/lib/partner';
import type { Health } from '@/lib/model';

// The spec does not give the zone of its timestamps. PARTNER_TIMEZONE wins when set; otherwise the newest
// GPS times, read as if UTC, are compared with our clock and the difference snapped to a quarter hour (real
// offsets are multiples of 15 minutes, and the fresh fixes of a fleet are seconds to a few minutes old). The
// median of the newest few is taken, not the newest alone, which one bus with a fast clock could move by a
// quarter hour. An offset is applied when first inferred (times read right at once) but shows as settled
// ('inferred') only once a later look, at least CONFIRM_AFTER_MS on and so on other fixes, finds it again.

const QUARTER_HOUR_MIN = 15;
/** The median of this many newest GPS times: robust to a few buses whose clocks run wrong. */
const FRESH_SAMPLES = 9;
/** A second look this much later confirms an inference. */
export const CONFIRM_AFTER_MS = 5_000;
const MIN_OFFSET_MIN = -12 * 60;
const MAX_OFFSET_MIN = 14 * 60;

export class FeedTimezone {
  private current: TimeRule;
  private source: Health['timezone']['source'];
  /** A changed inferred offset must be seen twice before it replaces one already inferred. */
  private pending: number | null = null;
  /** When the offset in force was first inferred, while it waits for its confirmation. */
  private unconfirmedSince: number | null = null;
  /** Offset in force for each generation of the rule; times parsed under one generation shift by the difference. */
  private offsets: number[];

  constructor(configuredZone: string | null) {
    this.current = configuredZone ? { kind: 'zone', zone: configuredZone } : { kind: 'offset', minutes: 0 };
    this.source = configuredZone ? 'config' : 'default';
    this.offsets = [this.current.kind === 'offset' ? this.current.minutes : 0];
  }

  /** Passed to lib/partner, which reads it on every response. */
  readonly rule = (): TimeRule => this.current;

  get generation(): number {
    return this.offsets.length - 1;
  }

  /** Milliseconds to add to an instant parsed under generation `gen` to read it under the current rule. */
  shiftSince(gen: number): number {
    const then = this.offsets[gen] ?? this.offsets[this.generation]!;
    return (then - this.offsets[this.generation]!) * 60_000;
  }

  /**
   * Looks at GPS instants parsed under the current rule. Returns the shift (ms) to apply to every stored
   * upstream time when the inferred offset changed, else 0.
   */
  inferFrom(parsed: Iterable<number | null>, now: number): number {
    if (this.source === 'config' || this.current.kind !== 'offset') return 0;
    const reference = freshMedian(parsed);
    if (reference === null) return 0;
    const currentMin = this.current.minutes;
    const wallAsUtc = reference + currentMin * 60_000;
    const candidate = Math.round((wallAsUtc - now) / (QUARTER_HOUR_MIN * 60_000)) * QUARTER_HOUR_MIN;
    if (candidate < MIN_OFFSET_MIN || candidate > MAX_OFFSET_MIN) return 0;
    if (candidate === currentMin) {
      this.pending = null;
      if (this.source === 'default') {
        this.source = 'inferring';
        this.unconfirmedSince = now;
      } else if (this.source === 'inferring' && now - this.unconfirmedSince! >= CONFIRM_AFTER_MS) {
        this.source = 'inferred';
        this.unconfirmedSince = null;
      }
      return 0;
    }
    if (this.source === 'inferred' && this.pending !== candidate) {
      this.pending = candidate;
      return 0;
    }
    // A settled offset replaced by one seen twice is settled; a first inference waits for its confirmation.
    this.source = this.source === 'inferred' ? 'inferred' : 'inferring';
    this.unconfirmedSince = this.source === 'inferring' ? now : null;
    this.pending = null;
    this.current = { kind: 'offset', minutes: candidate };
    this.offsets.push(candidate);
    return this.shiftSince(this.generation - 1);
  }

  health(now: number): Health['timezone'] {
    return { zone: describeTimeRule(this.current), source: this.source, offsetMinutes: offsetMinutesAt(this.current, now) };
  }
}

/** The median of the newest FRESH_SAMPLES instants; null when there are none. */
function freshMedian(parsed: Iterable<number | null>): number | null {
  const times: number[] = [];
  for (const t of parsed) if (t !== null && Number.isFinite(t)) times.push(t);
  if (times.length === 0) return null;
  const newest = times.sort((a, b) => b - a).slice(0, FRESH_SAMPLES);
  return newest[Math.floor((newest.length - 1) / 2)]!;
}
