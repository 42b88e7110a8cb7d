// A tiny PMTiles v3 archive of vector tiles, made at test time for the MAP_PMTILES path: a few simple features in
// the source layers the Protomaps style reads (earth, water, landuse, roads, buildings, places), encoded as
// Mapbox Vector Tiles with @maplibre/geojson-vt and @maplibre/vt-pbf and packed by writePmtiles below. The
// `pmtiles` package only reads archives, and no maintained npm package writes them, so the writer is here;
// basemap-pmtiles-fixture.test.ts reads its output back with `pmtiles`.
//
//   node scripts/data/basemap-pmtiles-fixture.mjs <out.pmtiles>
//
// Format: https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md (header of 127 bytes, a root directory,
// JSON metadata, then the tiles; directories and metadata gzip-compressed; one root directory, no leaves).
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from 'pmtiles';

const HEADER_BYTES = 127;
const ROOT_DIRECTORY_LIMIT = 16_384 - HEADER_BYTES;
const COMPRESSION = { none: 1, gzip: 2 };
const TILE_TYPE_MVT = 1;
const EXTENT = 4096;
// The source layers of the Protomaps basemap schema (what @protomaps/basemaps styles).
const SCHEMA_LAYERS = ['boundaries', 'buildings', 'earth', 'landcover', 'landuse', 'places', 'pois', 'roads', 'transit', 'water'];

function varint(out, value) {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** A directory of entries sorted by tile id: ids as deltas, then run lengths, lengths, offsets (0 = contiguous). */
function serializeDirectory(entries) {
  const out = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Buffer.from(out);
}

function e7(degrees) {
  return Math.round(degrees * 1e7);
}

/**
 * A PMTiles v3 archive of MVT tiles. `tiles`: [{ z, x, y, data }] with `data` an uncompressed MVT (gzipped
 * here); `bounds` [minLon, minLat, maxLon, maxLat]; `metadata` any JSON (vector_layers, attribution...).
 */
export function writePmtiles({ tiles, bounds, metadata }) {
  if (tiles.length === 0) throw new Error('writePmtiles: no tiles');
  const sorted = tiles.map((t) => ({ ...t, tileId: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.tileId - b.tileId);
  const blobs = [];
  const entries = [];
  let offset = 0;
  for (const t of sorted) {
    const blob = gzipSync(t.data);
    entries.push({ tileId: t.tileId, offset, length: blob.length, runLength: 1 });
    blobs.push(blob);
    offset += blob.length;
  }
  const root = gzipSync(serializeDirectory(entries));
  if (root.length > ROOT_DIRECTORY_LIMIT) throw new Error(`writePmtiles: root directory of ${root.length} bytes needs leaf directories, which this writer does not make`);
  const meta = gzipSync(Buffer.from(JSON.stringify(metadata)));
  const tileData = Buffer.concat(blobs);
  const zooms = sorted.map((t) => t.z);
  const [minLon, minLat, maxLon, maxLat] = bounds;
  const minZoom = Math.min(...zooms);
  const maxZoom = Math.max(...zooms);

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'latin1');
  header.writeUInt8(3, 7);
  const rootOffset = HEADER_BYTES;
  const metaOffset = rootOffset + root.length;
  const dataOffset = metaOffset + meta.length;
  const u64 = (at, n) => header.writeBigUInt64LE(BigInt(n), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metaOffset);
  u64(32, meta.length);
  u64(40, dataOffset); // no leaf directories: an empty section where the tiles start
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, tileData.length);
  u64(72, entries.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, entries.length); // tile contents
  header.writeUInt8(1, 96); // clustered: tiles in tile id order
  header.writeUInt8(COMPRESSION.gzip, 97);
  header.writeUInt8(COMPRESSION.gzip, 98);
  header.writeUInt8(TILE_TYPE_MVT, 99);
  header.writeUInt8(minZoom, 100);
  header.writeUInt8(maxZoom, 101);
  header.writeInt32LE(e7(minLon), 102);
  header.writeInt32LE(e7(minLat), 106);
  header.writeInt32LE(e7(maxLon), 110);
  header.writeInt32LE(e7(maxLat), 114);
  header.writeUInt8(Math.min(maxZoom, 13), 118);
  header.writeInt32LE(e7((minLon + maxLon) / 2), 119);
  header.writeInt32LE(e7((minLat + maxLat) / 2), 123);
  return Buffer.concat([header, root, meta, tileData]);
}

/** Tile x, y of a longitude and latitude at zoom z (Web Mercator). */
function tileOf(lon, lat, z) {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))];
}

const polygon = (properties, ring) => ({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: [ring] } });
const line = (properties, coordinates) => ({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates } });
const point = (properties, coordinates) => ({ type: 'Feature', properties, geometry: { type: 'Point', coordinates } });
const box = ([x0, y0, x1, y1]) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

/** The fixture's box: Midtown Manhattan and the East River. */
export const FIXTURE_BOUNDS = [-74.01, 40.74, -73.94, 40.79];

/**
 * The fixture's features by source layer: land west of -73.965 and water east of it, a park, three roads of the
 * kinds the style draws differently, a block of buildings, a neighbourhood and a town. Names are plain Latin so
 * every glyph is in public/fonts.
 */
export function fixtureLayers() {
  const [minX, minY, maxX, maxY] = FIXTURE_BOUNDS;
  const shore = -73.965;
  return {
    earth: [polygon({ kind: 'earth' }, box([minX, minY, shore, maxY]))],
    water: [polygon({ kind: 'water', name: 'East River' }, box([shore, minY, maxX, maxY]))],
    landuse: [polygon({ kind: 'park', name: 'Fixture Park' }, box([-73.985, 40.765, -73.975, 40.775]))],
    roads: [
      line({ kind: 'major_road', kind_detail: 'primary', name: 'Fixture Avenue', min_zoom: 8 }, [
        [-74.0, minY],
        [-73.98, maxY],
      ]),
      line({ kind: 'minor_road', kind_detail: 'residential', name: 'Fixture Street', min_zoom: 12 }, [
        [minX, 40.76],
        [shore, 40.76],
      ]),
      line({ kind: 'highway', kind_detail: 'motorway', name: 'Fixture Drive', min_zoom: 6 }, [
        [shore - 0.002, minY],
        [shore - 0.002, maxY],
      ]),
    ],
    buildings: [polygon({ kind: 'building', height: 20 }, box([-73.992, 40.752, -73.991, 40.753])), polygon({ kind: 'building', height: 40 }, box([-73.99, 40.752, -73.989, 40.753]))],
    places: [
      point({ kind: 'neighbourhood', name: 'Fixture Heights', min_zoom: 11, population_rank: 6 }, [-73.99, 40.77]),
      point({ kind: 'locality', name: 'Fixture City', min_zoom: 4, population_rank: 12, population: 1_000_000 }, [-73.985, 40.755]),
    ],
  };
}

/** The fixture archive: every tile from zoom 0 to `maxZoom` that the fixture's box touches. */
export function fixtureArchive({ maxZoom = 14 } = {}) {
  const layers = Object.entries(fixtureLayers()).map(([name, features]) => ({
    name,
    index: new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom, indexMaxZoom: maxZoom, indexMaxPoints: 0, extent: EXTENT, buffer: 64, tolerance: 1 }),
  }));
  const tiles = [];
  const [minX, minY, maxX, maxY] = FIXTURE_BOUNDS;
  for (let z = 0; z <= maxZoom; z++) {
    const [x0, y0] = tileOf(minX, maxY, z);
    const [x1, y1] = tileOf(maxX, minY, z);
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const inTile = {};
        for (const l of layers) {
          const tile = l.index.getTile(z, x, y);
          if (tile && tile.features.length > 0) inTile[l.name] = tile;
        }
        if (Object.keys(inTile).length > 0) tiles.push({ z, x, y, data: fromGeojsonVt(inTile, { version: 2, extent: EXTENT }) });
      }
    }
  }
  // Like a real Protomaps extract, the metadata lists every layer of the schema, with features or not: MapLibre
  // refuses a style layer whose source layer the archive does not declare.
  const metadata = {
    name: 'Fleetmap test fixture',
    attribution: 'Fleetmap test fixture',
    vector_layers: SCHEMA_LAYERS.map((id) => ({ id, fields: {}, minzoom: 0, maxzoom: maxZoom })),
  };
  return writePmtiles({ tiles, bounds: FIXTURE_BOUNDS, metadata });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/data/basemap-pmtiles-fixture.mjs <out.pmtiles>');
    process.exit(1);
  }
  const archive = fixtureArchive();
  writeFileSync(out, archive);
  console.info(`wrote ${out}: ${archive.length} bytes`);
}
