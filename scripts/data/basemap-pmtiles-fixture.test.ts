// The fixture writer checked against the reader MapLibre uses (`pmtiles`) and a vector-tile decoder, so the
// e2e test of the PMTiles basemap stands on an archive that is known to be valid.
import { VectorTile } from '@mapbox/vector-tile';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { PbfReader } from 'pbf';
import { Compression, PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BOUNDS, fixtureArchive, writePmtiles } from './basemap-pmtiles-fixture.mjs';

class BufferSource implements Source {
  constructor(private readonly bytes: Uint8Array) {}
  getKey() {
    return 'fixture';
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const slice = this.bytes.slice(offset, offset + length);
    return { data: slice.buffer.slice(slice.byteOffset, slice.byteOffset + slice.byteLength) };
  }
}

function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)];
}

describe('the PMTiles fixture', () => {
  const archive = new PMTiles(new BufferSource(fixtureArchive()));

  it('has a v3 header of gzip-compressed MVT tiles from zoom 0 to 14 over its box', async () => {
    const h = await archive.getHeader();
    expect(h).toMatchObject({ specVersion: 3, tileType: TileType.Mvt, tileCompression: Compression.Gzip, internalCompression: Compression.Gzip, minZoom: 0, maxZoom: 14, clustered: true });
    expect([h.minLon, h.minLat, h.maxLon, h.maxLat].map((n) => Math.round(n * 1e4) / 1e4)).toEqual(FIXTURE_BOUNDS);
    expect(h.numAddressedTiles).toBeGreaterThan(15);
    const meta = (await archive.getMetadata()) as { vector_layers: Array<{ id: string }> };
    // Every layer the Protomaps style reads is declared (MapLibre refuses a style layer on an undeclared one).
    const declared = meta.vector_layers.map((l) => l.id);
    const read = new Set(layers('protomaps', namedFlavor('light')).flatMap((l) => ('source-layer' in l && l['source-layer'] ? [l['source-layer']] : [])));
    for (const id of read) expect(declared, id).toContain(id);
  });

  it('serves a street-zoom tile with the layers and features the Protomaps style draws', async () => {
    const [x, y] = tileOf(-73.9905, 40.7525, 14); // the block of buildings
    const tile = await archive.getZxy(14, x, y);
    expect(tile).toBeDefined();
    const vt = new VectorTile(new PbfReader(new Uint8Array(tile!.data)));
    expect(Object.keys(vt.layers)).toEqual(expect.arrayContaining(['buildings', 'earth', 'roads']));
    expect(vt.layers.buildings!.length).toBe(2);
    const roads = vt.layers.roads!;
    const kinds = Array.from({ length: roads.length }, (_, i) => roads.feature(i).properties.kind).sort();
    expect(kinds).toContain('major_road');
    expect(roads.feature(0).loadGeometry()[0]!.length).toBeGreaterThanOrEqual(2);
  });

  it('has no tile outside its box, and the world tile at zoom 0', async () => {
    expect(await archive.getZxy(0, 0, 0)).toBeDefined();
    const [x, y] = tileOf(2.35, 48.85, 10); // Paris
    expect(await archive.getZxy(10, x, y)).toBeUndefined();
  });

  it('writes contiguous tiles whose directory offsets resolve, in any input order', async () => {
    const blank = new Uint8Array([0x1a, 0x00]); // an empty layer message: enough for the directory
    const bytes = writePmtiles({
      tiles: [
        { z: 1, x: 1, y: 1, data: blank },
        { z: 0, x: 0, y: 0, data: new Uint8Array([1, 2, 3]) },
        { z: 1, x: 0, y: 0, data: new Uint8Array([4, 5]) },
      ],
      bounds: [-10, -10, 10, 10],
      metadata: {},
    });
    const small = new PMTiles(new BufferSource(bytes));
    expect(Array.from(new Uint8Array((await small.getZxy(0, 0, 0))!.data))).toEqual([1, 2, 3]);
    expect(Array.from(new Uint8Array((await small.getZxy(1, 0, 0))!.data))).toEqual([4, 5]);
    expect(await small.getZxy(1, 1, 0)).toBeUndefined();
  });
});
