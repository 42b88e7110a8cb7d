// Reading a /metrics answer in tests with a real Prometheus text-format parser (parse-prometheus-text-format), never
// a regular expression: a family by name, and a sample's value by its labels.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  labels: Record<string, string>;
  value: number;
  /** Histograms: cumulative counts by upper bound (`le`), with count and sum. */
  buckets?: Record<string, number>;
  count?: number;
  sum?: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  samples: Sample[];
}

/**
 * Every family of a scrape, by name; throws on text the parser cannot read. The parser folds every series of a
 * histogram into one sample and drops their labels (its flattenMetrics, 1.1.1), so histograms are read from their
 * `_bucket`, `_sum` and `_count` series, which it gives with their labels once their TYPE line says `untyped`.
 */
export function parseScrape(text: string): Map<string, Family> {
  const families = parsePrometheusTextFormat(text);
  const histograms = new Map(families.filter((f) => f.type === 'HISTOGRAM').map((f) => [f.name, f]));
  const out = new Map<string, Family>();
  for (const f of families) {
    if (f.type === 'HISTOGRAM') continue;
    out.set(f.name, { name: f.name, help: f.help, type: f.type, samples: f.metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) })) });
  }
  if (histograms.size === 0) return out;
  const demoted = text
    .split('\n')
    .map((line) => (line.startsWith('# TYPE ') && line.endsWith(' histogram') && histograms.has(line.slice(7, -10)) ? `${line.slice(0, -10)} untyped` : line))
    .join('\n');
  // Each label set's _bucket, _sum and _count lines come as families of their own, one after another: gathered by name.
  const series = new Map<string, ReturnType<typeof parsePrometheusTextFormat>[number]['metrics']>();
  for (const f of parsePrometheusTextFormat(demoted)) series.set(f.name, [...(series.get(f.name) ?? []), ...f.metrics]);
  for (const [name, f] of histograms) {
    const byLabels = new Map<string, Sample>();
    const sampleOf = (labels: Record<string, string>) => {
      const key = JSON.stringify(Object.entries(labels).sort());
      let s = byLabels.get(key);
      if (!s) byLabels.set(key, (s = { labels, value: 0, buckets: {}, count: 0, sum: 0 }));
      return s;
    };
    for (const m of series.get(`${name}_bucket`) ?? []) {
      const { le, ...labels } = m.labels ?? {};
      if (le !== undefined) sampleOf(labels).buckets![le] = Number(m.value);
    }
    for (const m of series.get(`${name}_sum`) ?? []) sampleOf(m.labels ?? {}).sum = Number(m.value);
    for (const m of series.get(`${name}_count`) ?? []) {
      const s = sampleOf(m.labels ?? {});
      s.count = Number(m.value);
      s.value = s.count;
    }
    out.set(name, { name, help: f.help, type: 'HISTOGRAM', samples: [...byLabels.values()] });
  }
  return out;
}

const matches = (labels: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => labels[k] === v);

/** The samples of `name` whose labels include `labels`. */
export function samplesOf(scrape: Map<string, Family>, name: string, labels: Record<string, string> = {}): Sample[] {
  return (scrape.get(name)?.samples ?? []).filter((s) => matches(s.labels, labels));
}

/** The sum of the values of `name`'s samples whose labels include `labels` (0 when there are none). */
export function valueOf(scrape: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(scrape, name, labels).reduce((sum, s) => sum + s.value, 0);
}
