// Builds public/basemap/land-world.geojson: coarse land for the whole world, under the local detail, so an
// organization anywhere gets a usable offline map.
//
// Source: Natural Earth 1:110m land (public domain; credited "Natural Earth") as TopoJSON in the npm package
// `world-atlas@2.0.2` (`land-110m.json`). Not a dependency: this script runs `npm pack world-atlas@2.0.2` into a
// temp dir, untars it, decodes the TopoJSON with our own arc decoder (scripts/data/basemap-geometry.mjs), rounds to
// 3 decimals (~100 m, far below 110m's own precision), and removes the temp dir.
//
//   node scripts/data/basemap-world-land.mjs                       # downloads the package (~2 MB tarball)
//   node scripts/data/basemap-world-land.mjs --package-dir <dir>   # an already unpacked `package/` folder
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countPoints, preparePolygons, topologyPolygons } from './basemap-geometry.mjs';
import { fetchPackage } from './basemap-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = 'world-atlas@2.0.2';
const SOURCE_FILE = 'land-110m.json';
const OUT = join(root, 'public/basemap/land-world.geojson');
const DECIMALS = 3;
// Below the 110m data's own vertex spacing: rounding only, no visible change to the coastline.
const TOLERANCE_DEG = 0.01;

function main() {
  const { dir, cleanup } = fetchPackage(PACKAGE);
  let topology;
  try {
    topology = JSON.parse(readFileSync(join(dir, SOURCE_FILE), 'utf8'));
  } finally {
    cleanup();
  }
  if (topology?.type !== 'Topology') throw new Error(`${PACKAGE}/${SOURCE_FILE} is not a TopoJSON Topology`);

  const polygons = preparePolygons(topologyPolygons(topology, 'land'), { tolerance: TOLERANCE_DEG, decimals: DECIMALS });
  if (!polygons.length) throw new Error(`${PACKAGE}/${SOURCE_FILE}: no land polygons decoded`);

  const out = {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { kind: 'land' }, geometry: { type: 'MultiPolygon', coordinates: polygons } }],
  };
  mkdirSync(dirname(OUT), { recursive: true });
  const text = JSON.stringify(out);
  writeFileSync(OUT, text + '\n');
  console.info(`wrote ${OUT}: ${polygons.length} polygons, ${countPoints(polygons)} points, ${text.length} bytes`);
}

main();
