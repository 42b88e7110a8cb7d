// Builds public/basemap/land-local.geojson: detailed land around the network, for the offline map. Run by the
// build (`npm run prepare-assets`, scripts/server/next-build.mjs) with --if-stale: it rebuilds the file only when its
// stamp (the source package, the network's extent, this script and the geometry code) no longer matches the one
// the file carries, so a build on a new network's extent makes its land, and any other build costs a hash.
//
// Source: the dev dependency `@geo-maps/countries-coastline-1m` (0.6.0): every country's land cut at
// OpenStreetMap's coastline, as one 107 MB GeoJSON of 250 MultiPolygons (data © OpenStreetMap contributors, ODbL;
// credited in the style's attribution), read from node_modules: offline, as every build is. Parsing it costs a
// few seconds of CPU, which is why the stamp is checked first. The result is committed too, so that tests and
// `npm run dev` have it before a build; a test (scripts/data/clip-land.test.ts) fails when it is not current.
//
//   node scripts/data/clip-land.mjs                       # rebuilds it
//   node scripts/data/clip-land.mjs --if-stale            # only when its stamp is not current (the build's way)
//   node scripts/data/clip-land.mjs --package-dir <dir>   # from another unpacked copy of the package
//
// What the package really holds: its "1 m" is the Douglas–Peucker tolerance applied to OpenStreetMap's
// *simplified* land polygons, which are already generalised for small scales. Around Manhattan that is about
// 200 vertices, segments up to ~3.5 km along the East River: the shape is right (no river across the island,
// no seams) but not street-exact. The older countries-land-10m had about 400 vertices here, a third of them
// seams of a tile grid that cut notches of water into Manhattan at zoom 12–13. The street skeleton
// (scripts/data/basemap-streets.mjs) is drawn over the land, so a street along the shore still reads as a street.
//
// The box is the network's `bbox` from lib/sim/data/manhattan-network.json when that file exists, else the
// Manhattan network's [-74.03, 40.68, -73.90, 40.89]; padded by 10 km so the map has land past the last stop (basemap-network.mjs).
// Output: one feature `kind: "extent"` (the clip box: the style paints it as water over the coarse world land,
// so the 110m coastline never shows through the rivers; it carries the stamp) and one `kind: "land"` MultiPolygon.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countPoints, padBox, preparePolygons, signedArea } from './basemap-geometry.mjs';
import { basemapExtent, ROOT } from './basemap-network.mjs';

const PACKAGE_NAME = '@geo-maps/countries-coastline-1m';
export const LAND_LOCAL_FILE = join(ROOT, 'public/basemap/land-local.geojson');
const OUT = LAND_LOCAL_FILE;

// The land is cut a little wider than the extent: its anti-aliased edge then falls outside the water-painted
// extent instead of drawing a pale seam along the box.
const EDGE_OVERLAP_KM = 0.1;
// ~1 m: finer than a screen pixel at zoom 17, and 5 decimals keep the file small.
const DECIMALS = 5;
// Below the source's own vertex spacing: every vertex it has is kept, only rounding changes it.
const TOLERANCE_M = 2;
// Islets under ~3000 m² (a few pixels at zoom 14) are noise on a fleet map.
const MIN_AREA_M2 = 3000;
// At this source's resolution a lake inside the land is a 3–6-vertex triangle that reads as an error at street
// zooms (blue wedges across New Jersey and Queens in the older land file); only a lake of several km² is kept.
const MIN_HOLE_AREA_M2 = 5_000_000;

/** The unpacked package: `--package-dir <dir>`, else the installed dev dependency. */
function packageDir(argv) {
  const flag = argv.indexOf('--package-dir');
  if (flag !== -1) {
    if (!argv[flag + 1]) throw new Error('--package-dir needs a folder');
    return argv[flag + 1];
  }
  return join(ROOT, 'node_modules', PACKAGE_NAME);
}

/** `name@version` of the package in `dir`; null when it is not there. */
function packageSpec(dir) {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return null;
  const { name, version } = JSON.parse(readFileSync(file, 'utf8'));
  return `${name}@${version}`;
}

/** The package version package.json pins (what an install brings), for the stamp when the package is absent. */
function pinnedSpec() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const version = pkg.devDependencies?.[PACKAGE_NAME] ?? pkg.dependencies?.[PACKAGE_NAME];
  if (!version) throw new Error(`package.json does not list ${PACKAGE_NAME}`);
  return `${PACKAGE_NAME}@${version}`;
}

/** What the land file is made from: the source package, the extent and the code that cuts it. */
export function landStamp(spec = pinnedSpec(), extent = basemapExtent()) {
  const here = dirname(fileURLToPath(import.meta.url));
  const code = ['clip-land.mjs', 'basemap-geometry.mjs'].map((f) => readFileSync(join(here, f), 'utf8'));
  return createHash('sha256')
    .update(JSON.stringify({ spec, extent, code }))
    .digest('base64url')
    .slice(0, 16);
}

/** The stamp the land file carries; null when there is no file or no stamp. */
export function writtenStamp(file = OUT) {
  if (!existsSync(file)) return null;
  const land = JSON.parse(readFileSync(file, 'utf8'));
  return land?.features?.find((f) => f?.properties?.kind === 'extent')?.properties?.stamp ?? null;
}

function main(argv = process.argv) {
  const extent = basemapExtent();
  const dir = packageDir(argv);
  const spec = packageSpec(dir);
  const stamp = landStamp(spec ?? pinnedSpec(), extent);
  if (argv.includes('--if-stale') && writtenStamp() === stamp) {
    console.info(`${OUT} is current (stamp ${stamp})`);
    return;
  }
  if (!spec) throw new Error(`${PACKAGE_NAME} is not installed in ${dir}: run npm install (it is a dev dependency; the land file is built from it)`);
  const started = Date.now();
  const box = padBox(extent, EDGE_OVERLAP_KM);
  const world = JSON.parse(readFileSync(join(dir, 'map.geo.json'), 'utf8'));
  if (world?.type !== 'FeatureCollection' || !Array.isArray(world.features)) throw new Error(`${spec}: map.geo.json is not a FeatureCollection`);

  const metresPerDegree = 111_320;
  const xScale = Math.cos((((box[1] + box[3]) / 2) * Math.PI) / 180);
  const polygons = preparePolygons(
    world.features.map((f) => f.geometry).filter(Boolean),
    { box, tolerance: TOLERANCE_M / metresPerDegree, decimals: DECIMALS, minArea: MIN_AREA_M2 / metresPerDegree ** 2, xScale },
  );
  if (!polygons.length) throw new Error(`no land inside ${JSON.stringify(box)}: wrong box?`);
  const minHole = MIN_HOLE_AREA_M2 / metresPerDegree ** 2;
  for (const polygon of polygons) {
    const [outer, ...holes] = polygon;
    polygon.splice(0, polygon.length, outer, ...holes.filter((h) => Math.abs(signedArea(h, xScale)) >= minHole));
  }

  const [minX, minY, maxX, maxY] = extent;
  const out = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { kind: 'extent', source: spec, stamp },
        geometry: { type: 'Polygon', coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] },
      },
      { type: 'Feature', properties: { kind: 'land' }, geometry: { type: 'MultiPolygon', coordinates: polygons } },
    ],
  };
  mkdirSync(dirname(OUT), { recursive: true });
  const text = JSON.stringify(out);
  writeFileSync(OUT, text + '\n');
  console.info(`wrote ${OUT}: extent ${JSON.stringify(extent)}, ${polygons.length} polygons, ${countPoints(polygons)} points, ${text.length} bytes, in ${Date.now() - started} ms`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
