import { createHash } from 'node:crypto';
import type { EpochMs, ExceptionRule, FleetException } from '@/lib/model';
import type { RuleThresholds } from './config';
import { isIntegrationRule, type Condition } from './rules';

// Conditions into exceptions. Hysteresis: an exception opens once its condition has held for its rule's hold time,
// and resolves once the condition has been clear for the same time, so a flickering condition opens one exception.
// Suppression: while the upstream gives no fresh data the rules about buses and trips are held (nothing opens or
// resolves, pending onsets are dropped) and start again from fresh data when it returns; a key the rules cannot judge
// yet after that (its bus not seen again) is left as it is, so an exception resolves on evidence, never for want of
// data. Ids are derived from the
// rule, the subject and how many exceptions that pair opened before, so any instance that reads the same store
// derives the same id (a failover neither loses nor duplicates one).

export type TransitionType = 'opened' | 'acknowledged' | 'snoozed' | 'resolved';

export interface Transition {
  type: TransitionType;
  at: EpochMs;
  /** The exception after the transition (a copy). */
  exception: FleetException;
  user?: string | null;
  note?: string | null;
}

interface Tracked {
  key: string;
  rule: ExceptionRule;
  onSince: EpochMs | null;
  offSince: EpochMs | null;
  exception: FleetException | null;
}

export function holdMs(rule: ExceptionRule, t: RuleThresholds): number {
  // off-route holds in fixes, not time (rules.ts: two fixes in a row off the route open it, two back on it clear it).
  if (rule === 'off-route') return 0;
  if (rule === 'early') return t.earlyHoldS * 1000;
  if (rule === 'bunched' || rule === 'gapped') return t.headwayHoldS * 1000;
  return t.holdS * 1000;
}

/** The id of the n-th exception (0-based) of a rule and subject: the same on every instance. */
export function exceptionId(key: string, occurrence: number): string {
  return `ex_${createHash('sha256').update(`${key}#${occurrence}`).digest('hex').slice(0, 24)}`;
}

/** The key an exception was opened under: rule and subject (see rules.ts). */
export function keyOf(e: Pick<FleetException, 'rule' | 'subject'>): string {
  if (isIntegrationRule(e.rule)) return `${e.rule}|integration`;
  if (e.rule === 'gps-lost' || e.rule === 'stopped' || e.rule === 'off-route') return `${e.rule}|bus:${e.subject.busId}`;
  return `${e.rule}|trip:${e.subject.tripId}`;
}

const NONE: ReadonlySet<string> = new Set();

export class ExceptionEngine {
  private readonly tracked = new Map<string, Tracked>();
  /** The tracked keys with an exception, by its id: thousands can be open at 10,000 buses, and get() runs per stored row. */
  private readonly byId = new Map<string, Tracked>();
  /** Exceptions opened so far per key (from the store at start, then counted here). */
  private readonly occurrences = new Map<string, number>();
  private wasSuppressed = true;

  constructor(private thresholds: RuleThresholds) {}

  /**
   * What the store holds: the exceptions not yet resolved (taken up as they are, never opened again) and how many
   * each key has opened. Call before the first step.
   */
  resume(open: readonly FleetException[], occurrences: ReadonlyMap<string, number>): void {
    for (const [k, n] of occurrences) this.occurrences.set(k, Math.max(n, this.occurrences.get(k) ?? 0));
    for (const e of open) {
      const key = keyOf(e);
      const t: Tracked = { key, rule: e.rule, onSince: e.since, offSince: null, exception: { ...e } };
      this.tracked.set(key, t);
      this.byId.set(e.id, t);
      this.occurrences.set(key, Math.max(this.occurrences.get(key) ?? 0, 1));
    }
  }

  /** Exceptions not resolved, live objects: callers copy before handing them out. */
  open(): FleetException[] {
    const out: FleetException[] = [];
    for (const t of this.tracked.values()) if (t.exception) out.push(t.exception);
    return out;
  }

  get(id: string): FleetException | null {
    return this.byId.get(id)?.exception ?? null;
  }

  /**
   * One evaluation: `conditions` hold now (evaluateRules). With `suppressed`, keys of rules about buses and trips are
   * left as they are, and their pending onsets and clearings start again once it ends. Keys in `undecided` (the rules
   * could not judge them now) are left as they are too.
   */
  step(now: EpochMs, conditions: readonly Condition[], suppressed: boolean, undecided: ReadonlySet<string> = NONE): Transition[] {
    const out: Transition[] = [];
    if (!suppressed && this.wasSuppressed) {
      for (const t of this.tracked.values()) {
        if (isIntegrationRule(t.rule)) continue;
        t.onSince = t.exception ? t.exception.since : null;
        t.offSince = null;
      }
    }
    this.wasSuppressed = suppressed;
    const holding = new Set<string>();
    for (const c of conditions) {
      holding.add(c.key);
      let t = this.tracked.get(c.key);
      if (!t) {
        t = { key: c.key, rule: c.rule, onSince: now, offSince: null, exception: null };
        this.tracked.set(c.key, t);
      }
      t.offSince = null;
      t.onSince ??= now;
      if (t.exception) {
        // Figures follow the condition while it is open (minutes late grow); not a transition.
        t.exception.figures = c.figures;
        t.exception.message = c.message;
        t.exception.subject = { ...t.exception.subject, ...definedOf(c.subject) };
        continue;
      }
      if (now - t.onSince < holdMs(c.rule, this.thresholds)) continue;
      const n = this.occurrences.get(c.key) ?? 0;
      this.occurrences.set(c.key, n + 1);
      t.exception = {
        id: exceptionId(c.key, n),
        rule: c.rule,
        severity: c.severity,
        state: 'open',
        subject: c.subject,
        figures: c.figures,
        message: c.message,
        since: t.onSince,
        openedAt: now,
        acknowledgedAt: null,
        acknowledgedBy: null,
        note: null,
        snoozedUntil: null,
        resolvedAt: null,
        seq: 1,
      };
      this.byId.set(t.exception.id, t);
      out.push({ type: 'opened', at: now, exception: { ...t.exception } });
    }
    for (const t of [...this.tracked.values()]) {
      if (holding.has(t.key)) continue;
      if (suppressed && !isIntegrationRule(t.rule)) continue;
      // The rules cannot judge it now (rules.ts onUndecided): not holding says nothing, so it stays as it is.
      if (undecided.has(t.key)) continue;
      t.onSince = null;
      if (!t.exception) {
        this.tracked.delete(t.key);
        continue;
      }
      t.offSince ??= now;
      if (now - t.offSince < holdMs(t.rule, this.thresholds)) continue;
      const e = t.exception;
      e.state = 'resolved';
      e.resolvedAt = now;
      e.seq += 1;
      out.push({ type: 'resolved', at: now, exception: { ...e } });
      this.tracked.delete(t.key);
      this.byId.delete(e.id);
    }
    return out;
  }

  /** A person acknowledges an open exception (null when it is not open, or already acknowledged). */
  acknowledge(id: string, user: string, note: string | null, now: EpochMs): Transition | null {
    const e = this.get(id);
    if (!e || e.state !== 'open') return null;
    e.state = 'acknowledged';
    e.acknowledgedAt = now;
    e.acknowledgedBy = user;
    e.note = note;
    e.seq += 1;
    return { type: 'acknowledged', at: now, exception: { ...e }, user, note };
  }

  /** A dispatcher snoozes an exception that is not resolved, until `until`. */
  snooze(id: string, until: EpochMs, user: string, now: EpochMs): Transition | null {
    const e = this.get(id);
    if (!e) return null;
    e.snoozedUntil = until;
    e.seq += 1;
    return { type: 'snoozed', at: now, exception: { ...e }, user };
  }
}

function definedOf<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as Partial<T>;
}
