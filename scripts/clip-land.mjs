// Builds public/basemap/land-local.geojson: detailed land around the network, for the offline map.
//
// Source: `@geo-maps/countries-coastline-1m@0.6.0`: every country's land cut at OpenStreetMap's coastline, as
// one 107 MB GeoJSON of 250 MultiPolygons (data © OpenStreetMap contributors, ODbL; credited in the style's
// attribution). It is NOT a dependency: this script runs `npm pack` on it into a temp dir (a 34 MB tarball),
// untars it, reads `package/map.geo.json`, and removes the temp dir. Run it again whenever the network's
// extent changes:
//
//   node scripts/clip-land.mjs                       # downloads the package
//   node scripts/clip-land.mjs --package-dir <dir>   # an already unpacked `package/` folder
//
// What the package really holds: its "1 m" is the Douglas–Peucker tolerance applied to OpenStreetMap's
// *simplified* land polygons, which are already generalised for small scales. Around Manhattan that is about
// 200 vertices, segments up to ~3.5 km along the East River: the shape is right (no river across the island,
// no seams) but not street-exact. The older countries-land-10m had about 400 vertices here, a third of them
// seams of a tile grid that cut notches of water into Manhattan at zoom 12–13. The street skeleton
// (scripts/basemap-streets.mjs) is drawn over the land, so a street along the shore still reads as a street.
//
// The box is the network's `bbox` from lib/sim/data/manhattan-network.json when that file exists, else the
// Manhattan network's [-74.03, 40.68, -73.90, 40.89]; padded by 10 km so the map has land past the last stop (basemap-network.mjs).
// Output: one feature `kind: "extent"` (the clip box: the style paints it as water over the coarse world land,
// so the 110m coastline never shows through the rivers) and one `kind: "land"` MultiPolygon.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { countPoints, padBox, preparePolygons, signedArea } from './basemap-geometry.mjs';
import { basemapExtent, ROOT } from './basemap-network.mjs';
import { fetchPackage } from './basemap-package.mjs';

const PACKAGE = '@geo-maps/countries-coastline-1m@0.6.0';
const OUT = join(ROOT, 'public/basemap/land-local.geojson');

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

function main() {
  const extent = basemapExtent();
  const box = padBox(extent, EDGE_OVERLAP_KM);
  const { dir, cleanup } = fetchPackage(PACKAGE);
  let world;
  try {
    world = JSON.parse(readFileSync(join(dir, 'map.geo.json'), 'utf8'));
  } finally {
    cleanup();
  }
  if (world?.type !== 'FeatureCollection' || !Array.isArray(world.features)) throw new Error(`${PACKAGE}: map.geo.json is not a FeatureCollection`);

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
        properties: { kind: 'extent' },
        geometry: { type: 'Polygon', coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] },
      },
      { type: 'Feature', properties: { kind: 'land' }, geometry: { type: 'MultiPolygon', coordinates: polygons } },
    ],
  };
  mkdirSync(dirname(OUT), { recursive: true });
  const text = JSON.stringify(out);
  writeFileSync(OUT, text + '\n');
  console.info(`wrote ${OUT}: extent ${JSON.stringify(extent)}, ${polygons.length} polygons, ${countPoints(polygons)} points, ${text.length} bytes`);
}

main();
