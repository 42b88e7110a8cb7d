import 'server-only';
import { logLine } from '@/lib/log';
import type { FeedEvents, StoredSnapshot, TypedEmitter } from '@/lib/fleet';
import type { AdminWebhookTarget, EpochMs, FleetException, NetworkResponse, RecorderStatus, RouteStop, WebhookTestResult } from '@/lib/model';
import { routeStopsFromNetwork } from '@/lib/placement/bus-placement';
import { targetOfStored, type ExceptionsConfig, type StoredWebhookTarget, type WebhookTarget } from './config';
import { ExceptionEngine, type Transition } from './engine';
import { evaluateRules, suppressed, type LiveHeadway } from './rules';
import { ExceptionStore, type ExceptionsDb } from './store';
import { BusTracks } from './tracks';
import { Deliverer, deliveriesFor, sendTestDelivery, type DeliveryResult, type RetryPolicy } from './webhooks';

// The exception service: a room beside the feed that listens to its events and reads its snapshot. Only the
// instance whose feed leads evaluates and delivers webhooks; when an instance starts to lead it takes the open
// exceptions up from the store (never opening them again), so a failover neither loses nor duplicates one.
// Acknowledgements and snoozes go through the store (any instance may take them) and reach the leader's engine at
// its next evaluation.

/** What the service reads of the feed (lib/fleet's Feed). */
export interface ExceptionFeed {
  readonly events: TypedEmitter<FeedEvents>;
  readonly leading: boolean;
  liveSnapshot(): StoredSnapshot;
  networkGeoJson(): NetworkResponse;
  /** Asks for a bus's next location first (lib/fleet's watch): a bus one fix off its route is confirmed sooner. */
  watch?(busId: number, client: string): boolean;
}

export interface ExceptionServiceOptions {
  feed: ExceptionFeed;
  db: () => Promise<ExceptionsDb>;
  config: ExceptionsConfig;
  ghostAfterS: number;
  recorder: () => RecorderStatus['state'] | null;
  headways?: () => readonly LiveHeadway[];
  now?: () => EpochMs;
  /** How often the rules run (default 5 s: the trips walk's 15 s and a location refresh are far longer). */
  intervalMs?: number;
  retry?: RetryPolicy;
  deliveryPollMs?: number;
  fetchImpl?: typeof fetch;
  random?: () => number;
  log?: (line: Record<string, unknown>) => void;
}

/** The watch client the service asks for suspects' next fixes under (lib/fleet/watches bounds it like a viewer). */
const WATCH_CLIENT = 'exceptions';

/** How often the admin page's targets are read again: another instance's change reaches this one within it. */
const TARGETS_REREAD_MS = 60_000;

/** Resolved exceptions stay in the live list this long. */
const RECENT_MS = 3_600_000;

export class ExceptionService {
  private engine: ExceptionEngine | null = null;
  private readonly tracks: BusTracks;
  private readonly now: () => EpochMs;
  private readonly log: (line: Record<string, unknown>) => void;
  private store: ExceptionStore | null = null;
  private deliverer: Deliverer | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private targetsTimer: ReturnType<typeof setInterval> | null = null;
  private stored: WebhookTarget[] = [];
  private running: Promise<Transition[]> | null = null;
  private recent: FleetException[] = [];
  private resumedAt: EpochMs | null = null;
  private wasDown = true;
  private stops: { network: NetworkResponse; byRoute: Map<number, RouteStop[]> } | null = null;
  private readonly unsubscribe: (() => void)[] = [];
  private closed = false;
  private readonly deliveryListeners = new Set<(result: DeliveryResult) => void>();

  constructor(private readonly o: ExceptionServiceOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? logLine('info');
    this.tracks = new BusTracks((o.config.thresholds.stoppedMin + 10) * 60_000);
    this.unsubscribe.push(
      o.feed.events.on('fix', (f) => {
        if (f.gpsAt !== null) this.tracks.add(f.busId, { gpsAt: f.gpsAt, fetchedAt: f.fetchedAt, lat: f.lat, lon: f.lon, accuracy: f.accuracy, tripId: f.tripId });
      }),
      o.feed.events.on('time-shift', ({ shiftMs }) => this.tracks.shift(shiftMs)),
    );
  }

  /** Evaluates every intervalMs from now on. */
  start(): this {
    this.timer = setInterval(() => void this.evaluate().catch((e: unknown) => this.log({ msg: 'exception evaluation failed', error: e instanceof Error ? e.message : String(e) })), this.o.intervalMs ?? 5_000);
    this.timer.unref?.();
    const reread = () => void this.rereadTargets().catch((e: unknown) => this.log({ msg: 'webhook targets read failed', error: e instanceof Error ? e.message : String(e) }));
    reread();
    this.targetsTimer = setInterval(reread, TARGETS_REREAD_MS);
    this.targetsTimer.unref?.();
    return this;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.targetsTimer) clearInterval(this.targetsTimer);
    for (const u of this.unsubscribe) u();
    await this.running?.catch(() => []);
    await this.deliverer?.close();
    this.deliverer = null;
  }

  get targetCount(): number {
    return this.targets().length;
  }

  /** Where webhooks go: ALERT_WEBHOOKS' targets, then the admin page's (as last read from the store). */
  targets(): readonly WebhookTarget[] {
    return this.stored.length === 0 ? this.o.config.webhooks : [...this.o.config.webhooks, ...this.stored];
  }

  /** Reads the admin page's targets again (after a change here, and every TARGETS_REREAD_MS for the other instances' changes). */
  async rereadTargets(): Promise<void> {
    this.stored = (await (await this.exceptionStore()).activeWebhookTargets()).map(targetOfStored);
  }

  async webhookTargets(): Promise<AdminWebhookTarget[]> {
    return (await this.exceptionStore()).webhookTargetList();
  }

  async addWebhookTarget(t: Omit<StoredWebhookTarget, 'id'>, actor: string, address: string | null): Promise<AdminWebhookTarget> {
    const row = await (await this.exceptionStore()).addWebhookTarget(t, actor, address, this.now());
    await this.rereadTargets();
    return row;
  }

  async removeWebhookTarget(id: number, actor: string, address: string | null): Promise<AdminWebhookTarget | null> {
    const row = await (await this.exceptionStore()).removeWebhookTarget(id, actor, address, this.now());
    await this.rereadTargets();
    return row;
  }

  /** One signed test delivery to a stored target, sent now; null when there is no such target. */
  async testWebhookTarget(id: number): Promise<WebhookTestResult | null> {
    const t = await (await this.exceptionStore()).webhookTarget(id);
    return t ? sendTestDelivery(targetOfStored(t), this.now(), this.o.fetchImpl ?? fetch, this.o.retry?.timeoutMs) : null;
  }

  private tellDelivery(result: DeliveryResult): void {
    for (const l of this.deliveryListeners) {
      try {
        l(result);
      } catch {
        // A listener's bug must not stop the queue.
      }
    }
  }

  /** Open exceptions (acknowledged ones included) by rule, as this instance's engine holds them: none where it does not evaluate. */
  openByRule(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.engine?.open() ?? []) out[e.rule] = (out[e.rule] ?? 0) + 1;
    return out;
  }

  /** Hears each webhook delivery attempt's result (lib/metrics). Returns the function that removes the listener. */
  onDelivery(listener: (result: DeliveryResult) => void): () => void {
    this.deliveryListeners.add(listener);
    return () => void this.deliveryListeners.delete(listener);
  }

  /** The store, opened on first use. */
  async exceptionStore(): Promise<ExceptionStore> {
    this.store ??= new ExceptionStore(await this.o.db());
    return this.store;
  }

  /** One evaluation (the timer's; tests call it). Transitions new to the store. */
  evaluate(): Promise<Transition[]> {
    this.running ??= this.step().finally(() => (this.running = null));
    return this.running;
  }

  private async step(): Promise<Transition[]> {
    if (this.closed) return [];
    if (!this.o.feed.leading) {
      // Following: the leader evaluates. Taking the lead later starts from the store again.
      this.engine = null;
      await this.deliverer?.close();
      this.deliverer = null;
      return [];
    }
    const store = await this.exceptionStore();
    if (!this.engine) {
      const engine = new ExceptionEngine(this.o.config.thresholds);
      engine.resume(await store.unresolved(), await store.occurrences());
      this.engine = engine;
      this.deliverer = new Deliverer({ store, targets: () => this.targets(), now: this.now, retry: this.o.retry, random: this.o.random, fetchImpl: this.o.fetchImpl, pollMs: this.o.deliveryPollMs, log: this.log, onResult: (result) => this.tellDelivery(result) });
      this.deliverer.start();
    } else {
      this.adoptActions(await store.actedOn());
    }
    const now = this.now();
    const { snapshot } = this.o.feed.liveSnapshot();
    const down = suppressed(snapshot);
    if (!down && (this.wasDown || this.resumedAt === null)) this.resumedAt = now;
    this.wasDown = down;
    const undecided = new Set<string>();
    const conditions = evaluateRules({
      now,
      snapshot,
      tracks: this.tracks,
      stopsByRoute: this.stopsByRoute(),
      thresholds: this.o.config.thresholds,
      ghostAfterS: this.o.ghostAfterS,
      resumedAt: this.resumedAt ?? now,
      recorder: this.o.recorder(),
      headways: this.o.headways?.(),
      onSuspect: (busId) => void this.o.feed.watch?.(busId, WATCH_CLIENT),
      onUndecided: (key) => undecided.add(key),
    });
    this.tracks.retain(new Set(snapshot.vehicles.map((v) => v.busId)));
    const transitions = this.engine.step(now, conditions, down, undecided);
    return this.recordAndSend(store, transitions);
  }

  private async recordAndSend(store: ExceptionStore, transitions: readonly Transition[]): Promise<Transition[]> {
    if (transitions.length === 0) return [];
    const fresh = await store.record(transitions);
    await store.enqueue(fresh.flatMap((t) => deliveriesFor(t, this.targets())));
    const cut = this.now() - RECENT_MS;
    this.recent = [...fresh.filter((t) => t.type === 'resolved').map((t) => t.exception), ...this.recent.filter((e) => (e.resolvedAt ?? 0) >= cut)].slice(0, 500);
    for (const t of fresh) this.log({ msg: `exception ${t.type}`, id: t.exception.id, rule: t.exception.rule, busId: t.exception.subject.busId, tripId: t.exception.subject.tripId });
    void this.deliverer?.runOnce().catch(() => 0);
    return fresh;
  }

  /** Acknowledgements and snoozes any instance wrote to the store, taken into the leader's engine. */
  private adoptActions(stored: readonly FleetException[]): void {
    for (const s of stored) {
      const mine = this.engine?.get(s.id);
      if (!mine || mine.seq >= s.seq) continue;
      Object.assign(mine, { state: s.state, acknowledgedAt: s.acknowledgedAt, acknowledgedBy: s.acknowledgedBy, note: s.note, snoozedUntil: s.snoozedUntil, seq: s.seq });
    }
  }

  private stopsByRoute(): Map<number, RouteStop[]> {
    const network = this.o.feed.networkGeoJson();
    if (this.stops?.network !== network) this.stops = { network, byRoute: routeStopsFromNetwork(network) };
    return this.stops.byRoute;
  }

  /** The live list: on the leader its engine's exceptions and the last hour's resolved ones; elsewhere the store's. */
  async live(): Promise<FleetException[]> {
    if (this.engine) return [...this.engine.open().map((e) => ({ ...e })), ...this.recent];
    const store = await this.exceptionStore();
    return [...(await store.unresolved()), ...(await store.resolvedSince(this.now() - RECENT_MS))];
  }

  async acknowledge(id: string, user: string, note: string | null, address: string | null): Promise<FleetException | null> {
    return this.act(await (await this.exceptionStore()).acknowledge(id, user, note, this.now(), address));
  }

  async snooze(id: string, minutes: number, user: string, address: string | null): Promise<FleetException | null> {
    const now = this.now();
    return this.act(await (await this.exceptionStore()).snooze(id, now + minutes * 60_000, user, now, address));
  }

  private async act(t: Transition | null): Promise<FleetException | null> {
    if (!t) return null;
    this.adoptActions([t.exception]);
    await (await this.exceptionStore()).enqueue(deliveriesFor(t, this.targets()));
    void this.deliverer?.runOnce().catch(() => 0);
    return t.exception;
  }
}
