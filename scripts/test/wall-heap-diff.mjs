// Heap snapshot comparison for the wall soak: what survived between two moments, grouped by constructor, and
// what keeps it alive. Used by `node scripts/test/wall-soak.mjs --heap-diff` (which takes the snapshots after forced
// garbage collection), or on two saved snapshots: `node scripts/test/wall-heap-diff.mjs before.heapsnapshot after.heapsnapshot [--top 15]`.
// Object ids are stable within one DevTools session, so "new" means allocated after the first snapshot and
// still reachable at the second: the objects a leak is made of.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Takes a snapshot over a CDP session (Playwright's CDPSession), after forced collection; returns its JSON text. */
export async function takeHeapSnapshot(cdp) {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const chunks = [];
  const onChunk = (e) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  return chunks.join('');
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);
// V8 reports some of its own internals as native too ("system / ..."); these two are the off-heap stores.
const EXTERNAL_STORES = new Set(['system / JSArrayBufferData', 'system / ExternalStringData']);

/** Flat arrays of the V8 heap snapshot format, indexed by node ordinal, plus the reverse (retainer) graph. */
export function parseSnapshot(text) {
  const raw = JSON.parse(text);
  const meta = raw.snapshot.meta;
  const nf = meta.node_fields;
  const ef = meta.edge_fields;
  const NF = nf.length;
  const EF = ef.length;
  const nodeTypes = meta.node_types[nf.indexOf('type')];
  const edgeTypes = meta.edge_types[ef.indexOf('type')];
  const [iType, iName, iId, iSize, iEdges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [ieType, ieName, ieTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const { nodes, edges, strings } = raw;
  const count = nodes.length / NF;

  const id = new Float64Array(count);
  const size = new Float64Array(count);
  const cls = new Array(count);
  // Blink's objects and buffer/string backing stores live outside the V8 heap that Runtime.getHeapUsage reports.
  const outsideV8 = new Uint8Array(count);
  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    const o = n * NF;
    const type = nodeTypes[nodes[o + iType]];
    const name = strings[nodes[o + iName]];
    id[n] = nodes[o + iId];
    size[n] = nodes[o + iSize];
    cls[n] = className(type, name);
    outsideV8[n] = type === 'native' && (!name.startsWith('system / ') || EXTERNAL_STORES.has(name)) ? 1 : 0;
    firstEdge[n] = e;
    e += nodes[o + iEdges];
    firstEdge[n + 1] = e;
  }

  const edgeCount = edges.length / EF;
  const edgeTo = new Uint32Array(edgeCount);
  const edgeKind = new Array(edgeCount);
  const edgeLabel = new Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const o = e * EF;
    const kind = edgeTypes[edges[o + ieType]];
    const nameOrIndex = edges[o + ieName];
    edgeTo[e] = edges[o + ieTo] / NF;
    edgeKind[e] = kind;
    edgeLabel[e] = kind === 'element' || kind === 'hidden' ? `[${nameOrIndex}]` : String(strings[nameOrIndex]);
  }

  // Shortest strong path from the root to every node (breadth first), as DevTools' "distance": the first
  // retainer on that path is the one worth reading.
  const parentEdge = new Int32Array(count).fill(-1);
  const parentNode = new Int32Array(count).fill(-1);
  const seen = new Uint8Array(count);
  const queue = new Uint32Array(count);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const n = queue[head++];
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e++) {
      if (edgeKind[e] === 'weak') continue;
      const to = edgeTo[e];
      if (seen[to]) continue;
      seen[to] = 1;
      parentEdge[to] = e;
      parentNode[to] = n;
      queue[tail++] = to;
    }
  }
  return { count, id, size, cls, outsideV8, parentEdge, parentNode, edgeLabel, reachable: seen };
}

function className(type, name) {
  if (type === 'object' || type === 'native') return name;
  if (type === 'closure') return `${name || '(anonymous)'}()`;
  if (STRING_TYPES.has(type)) return '(string)';
  if (type === 'number' || type === 'heap number') return '(number)';
  if (type === 'code') return '(compiled code)';
  const short = name && name.length <= 40 ? `: ${name}` : '';
  return `(${type}${short})`;
}

/** The retainer path from the root to a node, nearest first, each step "Class.edge". */
export function retainerPath(snap, node, depth = 8) {
  const steps = [];
  for (let n = node; steps.length < depth && snap.parentNode[n] > 0; n = snap.parentNode[n]) {
    steps.push(`${snap.cls[snap.parentNode[n]]}.${snap.edgeLabel[snap.parentEdge[n]]}`);
  }
  return steps;
}

/**
 * Per class: objects new in `after` (ids not in `before`), objects gone, and the change in count and bytes.
 * Sorted by the bytes the class grew.
 */
export function diffSnapshots(before, after) {
  const beforeIds = new Set();
  const rows = new Map();
  const row = (c) => {
    let r = rows.get(c);
    if (!r) rows.set(c, (r = { cls: c, outsideV8: false, added: 0, addedBytes: 0, removed: 0, removedBytes: 0, newNodes: [] }));
    return r;
  };
  for (let n = 0; n < before.count; n++) {
    if (!before.reachable[n]) continue;
    beforeIds.add(before.id[n]);
  }
  const afterIds = new Set();
  for (let n = 0; n < after.count; n++) {
    if (!after.reachable[n]) continue;
    afterIds.add(after.id[n]);
    if (beforeIds.has(after.id[n])) continue;
    const r = row(after.cls[n]);
    r.outsideV8 = after.outsideV8[n] === 1;
    r.added++;
    r.addedBytes += after.size[n];
    r.newNodes.push(n);
  }
  for (let n = 0; n < before.count; n++) {
    if (!before.reachable[n] || afterIds.has(before.id[n])) continue;
    const r = row(before.cls[n]);
    r.outsideV8 = before.outsideV8[n] === 1;
    r.removed++;
    r.removedBytes += before.size[n];
  }
  return [...rows.values()]
    .map((r) => ({ ...r, deltaCount: r.added - r.removed, deltaBytes: r.addedBytes - r.removedBytes }))
    .sort((a, b) => b.deltaBytes - a.deltaBytes);
}

/** The most common retainer paths among a class's new objects (the paths' nearest steps, counted). */
export function commonRetainers(snap, nodes, { depth = 6, limit = 3 } = {}) {
  const counts = new Map();
  for (const n of nodes) {
    const key = retainerPath(snap, n, depth).join(' <- ') || '(root)';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** A printable report: the classes that grew most, and for each what retains its new objects. */
export function heapDiffReport(before, after, { top = 12 } = {}) {
  const rows = diffSnapshots(before, after);
  const v8 = rows.filter((r) => !r.outsideV8).reduce((s, r) => s + r.deltaBytes, 0);
  const outside = rows.filter((r) => r.outsideV8).reduce((s, r) => s + r.deltaBytes, 0);
  const lines = [
    `heap diff: ${kb(v8)} net in the V8 heap, ${kb(outside)} outside it (Blink objects, buffer and string backing stores: marked *),`,
    `over ${rows.length} classes (reachable objects; + new since the first snapshot, - gone)`,
  ];
  lines.push(`  ${'class'.padEnd(46)} ${'+new'.padStart(7)} ${'-gone'.padStart(7)} ${'Δcount'.padStart(7)} ${'Δsize'.padStart(11)}`);
  for (const r of rows.slice(0, top)) {
    const name = `${r.outsideV8 ? '* ' : ''}${r.cls}`.slice(0, 46);
    lines.push(`  ${name.padEnd(46)} ${String(r.added).padStart(7)} ${String(r.removed).padStart(7)} ${String(r.deltaCount).padStart(7)} ${kb(r.deltaBytes).padStart(11)}`);
  }
  lines.push('retainers of the new objects in the classes that grew most (nearest first):');
  for (const r of rows.slice(0, Math.min(top, 6)).filter((x) => x.deltaBytes > 0 && x.added > 0)) {
    lines.push(`  ${r.cls} (+${r.added})`);
    for (const [path, n] of commonRetainers(after, r.newNodes)) lines.push(`    ${String(n).padStart(6)} x  ${path}`);
  }
  return lines.join('\n');
}

function main(argv) {
  const files = argv.filter((a) => !a.startsWith('--'));
  const topIdx = argv.indexOf('--top');
  const top = topIdx >= 0 ? Number(argv[topIdx + 1]) : 12;
  if (topIdx >= 0) files.splice(files.indexOf(argv[topIdx + 1]), 1);
  if (files.length !== 2 || !Number.isFinite(top) || top <= 0) {
    console.error('Usage: node scripts/test/wall-heap-diff.mjs before.heapsnapshot after.heapsnapshot [--top N]');
    process.exit(1);
  }
  const [a, b] = files.map((f) => parseSnapshot(readFileSync(f, 'utf8')));
  console.log(heapDiffReport(a, b, { top }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
