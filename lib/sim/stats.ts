// Request counts, so tests can prove what a client did or did not ask the upstream.

export interface StatsSnapshot {
  since: number;
  total: number;
  byOperation: Record<string, number>;
  byKey: Record<string, number>;
  byStatus: Record<string, number>;
  rateLimited: number;
}

export class RequestStats {
  private s: StatsSnapshot;

  constructor(private readonly now: () => number) {
    this.s = RequestStats.empty(now());
  }

  private static empty(since: number): StatsSnapshot {
    return { since, total: 0, byOperation: {}, byKey: {}, byStatus: {}, rateLimited: 0 };
  }

  record(operation: string, maskedKey: string | null, status: number | 'hang'): void {
    const s = this.s;
    s.total++;
    s.byOperation[operation] = (s.byOperation[operation] ?? 0) + 1;
    const key = maskedKey ?? '(none)';
    s.byKey[key] = (s.byKey[key] ?? 0) + 1;
    s.byStatus[String(status)] = (s.byStatus[String(status)] ?? 0) + 1;
    if (status === 429) s.rateLimited++;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.s);
  }

  reset(): void {
    this.s = RequestStats.empty(this.now());
  }
}
