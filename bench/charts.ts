// The performance page's charts (docs/performance.md), drawn as plain SVG from bench/results/latest.json (the same file as the
// table, regenerated with it by bench/readme.ts): what viewers cost the upstream per peer, the spread of location
// age and position error against round robin, and the map's update cost against DOM markers by fleet size.
// Each chart reads figures by their metric names; a benchmark not run yet draws a chart that says so.
import type { Distribution, Figure } from './support/report';
import type { ResultsFile } from './support/results';

export const CHART_DIR = 'docs/performance';

const W = 720;
const FONT = 'font-family="system-ui, sans-serif" font-size="12"';
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

function svg(height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" ${FONT}>`,
    `<rect width="${W}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="15" font-weight="600">${esc(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

function noData(title: string, why: string): string {
  return svg(80, title, [`<text x="16" y="56" fill="#6b7280">${esc(why)}</text>`]);
}

interface Series {
  name: string;
  values: (number | null)[];
}

/** Grouped bars, one group per x label, a log scale when the values span more than two decades. */
function groupedBars(title: string, unit: string, xLabels: string[], series: Series[], note: string, line?: { value: number; label: string }): string {
  const values = series.flatMap((s) => s.values).filter((v): v is number => v !== null && v > 0);
  if (values.length === 0) return noData(title, 'No figures in bench/results/latest.json yet.');
  const log = Math.max(...values) / Math.min(...values) > 100;
  const top = log ? 10 ** Math.ceil(Math.log10(Math.max(...values))) : niceCeil(Math.max(...values));
  const bottom = log ? 10 ** Math.floor(Math.log10(Math.min(...values))) : 0;
  const plot = { x: 70, y: 50, w: W - 90, h: 240 };
  const scale = (v: number) => (log ? (Math.log10(v) - Math.log10(bottom)) / (Math.log10(top) - Math.log10(bottom)) : (v - bottom) / (top - bottom));
  const yOf = (v: number) => plot.y + plot.h - Math.max(0, Math.min(1, scale(v))) * plot.h;
  const body: string[] = [];
  const ticks = log ? Array.from({ length: Math.log10(top / bottom) + 1 }, (_, i) => bottom * 10 ** i) : [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  for (const t of ticks) {
    body.push(`<line x1="${plot.x}" x2="${plot.x + plot.w}" y1="${yOf(t).toFixed(1)}" y2="${yOf(t).toFixed(1)}" stroke="#e5e7eb"/>`);
    body.push(`<text x="${plot.x - 6}" y="${(yOf(t) + 4).toFixed(1)}" text-anchor="end" fill="#374151">${num(t)}</text>`);
  }
  body.push(`<text x="16" y="${plot.y - 10}" fill="#374151">${esc(unit)}${log ? ' (log scale)' : ''}</text>`);
  if (line && line.value > bottom && line.value < top) {
    const y = yOf(line.value).toFixed(1);
    body.push(`<line x1="${plot.x}" x2="${plot.x + plot.w}" y1="${y}" y2="${y}" stroke="#111827" stroke-dasharray="6 4"/>`);
    body.push(`<text x="${plot.x + plot.w}" y="${Number(y) - 4}" text-anchor="end" font-size="11" fill="#111827">${esc(line.label)}</text>`);
  }
  const groupW = plot.w / xLabels.length;
  const barW = Math.min(48, (groupW * 0.8) / series.length);
  xLabels.forEach((label, g) => {
    const x0 = plot.x + g * groupW + (groupW - barW * series.length) / 2;
    series.forEach((s, i) => {
      const v = s.values[g];
      if (v === null || v === undefined || v <= 0) return;
      const x = x0 + i * barW;
      const y = yOf(v);
      body.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(barW - 4).toFixed(1)}" height="${(plot.y + plot.h - y).toFixed(1)}" fill="${COLORS[i % COLORS.length]}"/>`);
      body.push(`<text x="${(x + (barW - 4) / 2).toFixed(1)}" y="${(y - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#111827">${num(v)}</text>`);
    });
    body.push(`<text x="${(plot.x + g * groupW + groupW / 2).toFixed(1)}" y="${plot.y + plot.h + 18}" text-anchor="middle" fill="#111827">${esc(label)}</text>`);
  });
  const legendY = plot.y + plot.h + 42;
  series.forEach((s, i) => {
    const x = 16 + i * 210;
    body.push(`<rect x="${x}" y="${legendY - 10}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/>`);
    body.push(`<text x="${x + 18}" y="${legendY}" fill="#111827">${esc(s.name)}</text>`);
  });
  body.push(`<text x="16" y="${legendY + 24}" font-size="11" fill="#6b7280">${esc(note)}</text>`);
  return svg(legendY + 36, title, body);
}

function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((c) => c >= v)!;
}

/** One row per contender: a line from min to max, a dot at the median, a bar at p95. */
function ranges(title: string, panels: { label: string; unit: string; rows: { name: string; d: Distribution | null }[] }[], note: string): string {
  const rowsAll = panels.flatMap((p) => p.rows);
  if (rowsAll.every((r) => r.d === null)) return noData(title, 'No distributions in bench/results/latest.json yet (rerun the benchmark).');
  const body: string[] = [];
  let y = 50;
  const plot = { x: 150, w: W - 190 };
  for (const panel of panels) {
    const max = Math.max(...panel.rows.map((r) => r.d?.max ?? 0), 1);
    const top = niceCeil(max);
    const xOf = (v: number) => plot.x + (v / top) * plot.w;
    body.push(`<text x="16" y="${y}" font-weight="600">${esc(panel.label)}</text>`);
    y += 10;
    for (const f of [0, 0.25, 0.5, 0.75, 1]) {
      const x = xOf(f * top);
      body.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${y}" y2="${y + panel.rows.length * 28}" stroke="#e5e7eb"/>`);
      body.push(`<text x="${x.toFixed(1)}" y="${y + panel.rows.length * 28 + 14}" text-anchor="middle" fill="#374151">${num(f * top)}${f === 1 ? ` ${esc(panel.unit)}` : ''}</text>`);
    }
    panel.rows.forEach((r, i) => {
      const cy = y + 14 + i * 28;
      body.push(`<text x="${plot.x - 8}" y="${cy + 4}" text-anchor="end" fill="#111827">${esc(r.name)}</text>`);
      if (!r.d) return;
      const c = COLORS[i % COLORS.length];
      body.push(`<line x1="${xOf(r.d.min).toFixed(1)}" x2="${xOf(r.d.max).toFixed(1)}" y1="${cy}" y2="${cy}" stroke="${c}" stroke-width="2"/>`);
      body.push(`<rect x="${xOf(r.d.median).toFixed(1)}" y="${cy - 6}" width="${Math.max(1, xOf(r.d.p95) - xOf(r.d.median)).toFixed(1)}" height="12" fill="${c}" fill-opacity="0.35" stroke="${c}"/>`);
      body.push(`<circle cx="${xOf(r.d.median).toFixed(1)}" cy="${cy}" r="4" fill="${c}"/>`);
      body.push(`<text x="${(xOf(r.d.max) + 6).toFixed(1)}" y="${cy + 4}" font-size="10" fill="#374151">median ${num(r.d.median)}, p95 ${num(r.d.p95)}, max ${num(r.d.max)}</text>`);
    });
    y += panel.rows.length * 28 + 40;
  }
  body.push(`<text x="16" y="${y - 10}" font-size="11" fill="#6b7280">${esc(note)}</text>`);
  return svg(y, title, body);
}

const figuresOf = (file: ResultsFile, name: string): Figure[] => file.benchmarks[name]?.figures ?? [];

function upstreamCostChart(file: ResultsFile): string {
  const title = 'Upstream requests per minute against viewers';
  const entry = file.benchmarks['upstream-cost'];
  if (!entry) return noData(title, 'upstream-cost has not been run.');
  const rows = entry.figures
    .map((f) => ({ f, m: /^upstream requests\/min, (\d+) viewers?$/.exec(f.metric) }))
    .filter((x): x is { f: Figure; m: RegExpExecArray } => x.m !== null);
  const viewers = [...new Set(rows.map((r) => Number(r.m[1])))].sort((a, b) => a - b);
  const peers = [...new Set(rows.map((r) => r.f.peerName ?? entry.peer ?? 'peer'))];
  const at = (n: number, pick: (f: Figure) => number | null, peer?: string) => {
    const r = rows.find((x) => Number(x.m[1]) === n && (peer === undefined || (x.f.peerName ?? entry.peer) === peer));
    return r ? pick(r.f) : null;
  };
  const series: Series[] = [
    { name: 'Fleetmap', values: viewers.map((n) => at(n, (f) => f.fleetmap)) },
    ...peers.map((p) => ({ name: p, values: viewers.map((n) => at(n, (f) => f.peer, p)) })),
  ];
  const limit = typeof entry.details.rateLimit === 'number' ? entry.details.rateLimit : null;
  return groupedBars(
    title,
    'requests/min',
    viewers.map((n) => `${n} viewer${n === 1 ? '' : 's'}`),
    series,
    `${entry.run.date.slice(0, 16)} UTC; viewers poll /api/live every 5 s; bench/results/latest.json upstream-cost.`,
    limit === null ? undefined : { value: limit, label: `the key's limit, ${limit}/min` },
  );
}

function freshnessChart(file: ResultsFile): string {
  const title = 'Location age and position error of buses on trips, by contender';
  const entry = file.benchmarks.freshness;
  if (!entry) return noData(title, 'freshness has not been run.');
  const find = (metric: string) => figuresOf(file, 'freshness').find((f) => f.metric === metric);
  const age = find('location age, mean');
  const error = find('position error, mean');
  const cached = (metric: string) => figuresOf(file, 'freshness').find((f) => f.metric === metric && f.peerName === 'shared TTL cache')?.distribution?.peer ?? null;
  return ranges(
    title,
    [
      {
        label: 'location age',
        unit: 's',
        rows: [
          { name: 'Fleetmap', d: age?.distribution?.fleetmap ?? null },
          { name: entry.peer ?? 'round robin', d: age?.distribution?.peer ?? null },
          { name: 'shared TTL cache', d: cached('location age, mean') },
        ],
      },
      {
        label: 'position error',
        unit: 'm',
        rows: [
          { name: 'Fleetmap', d: error?.distribution?.fleetmap ?? null },
          { name: entry.peer ?? 'round robin', d: error?.distribution?.peer ?? null },
          { name: 'shared TTL cache', d: cached('position error, mean') },
        ],
      },
    ],
    `line: min to max; dot: median; box: median to p95. ${entry.run.date.slice(0, 16)} UTC, bench/results/latest.json freshness.`,
  );
}

function mapUpdateChart(file: ResultsFile): string {
  const title = 'Map update: main-thread time per update by fleet size';
  const entry = file.benchmarks['map-update'];
  if (!entry) return noData(title, 'map-update has not been run.');
  const rows = entry.figures
    .map((f) => ({ f, m: /^(\d+) buses: main-thread time per update/.exec(f.metric) }))
    .filter((x): x is { f: Figure; m: RegExpExecArray } => x.m !== null);
  const sizes = rows.map((r) => Number(r.m[1]));
  const series: Series[] = [
    { name: 'Fleetmap (GeoJSON layers)', values: rows.map((r) => r.f.fleetmap) },
    { name: entry.peer ?? 'peer', values: rows.map((r) => r.f.peer) },
  ];
  return groupedBars(title, 'ms (median)', sizes.map((n) => `${n.toLocaleString('en-US')} buses`), series, `${entry.run.date.slice(0, 16)} UTC, software WebGL (SwiftShader); bench/results/latest.json map-update.`);
}

/** File name (under CHART_DIR) → SVG text. */
export function renderCharts(file: ResultsFile): Record<string, string> {
  return {
    'upstream-cost.svg': upstreamCostChart(file),
    'freshness.svg': freshnessChart(file),
    'map-update.svg': mapUpdateChart(file),
  };
}
