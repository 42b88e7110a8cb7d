// The simulator's network (lib/sim/data/manhattan-network.json, derived from MTA's GTFS by derive-network.mjs):
// the area the offline basemap covers and the routes its street skeleton is drawn from.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertBox, padBox } from './basemap-geometry.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NETWORK_FILE = join(ROOT, 'lib/sim/data/manhattan-network.json');
const FALLBACK_NETWORK_BOX = [-74.03, 40.68, -73.9, 40.89];
// Land and place names reach this far past the last stop: at zoom 11 a dispatcher's screen spans ~50 km, and
// past the local extent only the world's 1:110m coast is left.
const PAD_KM = 10;

/** The network's `bbox`, or the Manhattan network's box when the file is absent. */
export function networkBox() {
  if (!existsSync(NETWORK_FILE)) {
    console.info(`no ${NETWORK_FILE}: using the Manhattan network box ${JSON.stringify(FALLBACK_NETWORK_BOX)}`);
    return FALLBACK_NETWORK_BOX;
  }
  return assertBox(readNetwork().bbox, `${NETWORK_FILE} bbox`);
}

export function readNetwork() {
  const network = JSON.parse(readFileSync(NETWORK_FILE, 'utf8'));
  if (!Array.isArray(network?.routes)) throw new Error(`${NETWORK_FILE}: no routes`);
  return network;
}

/** The box the local basemap covers: the network's box padded by PAD_KM, rounded to 5 decimals. */
export function basemapExtent() {
  return padBox(networkBox(), PAD_KM).map((n) => Math.round(n * 1e5) / 1e5);
}
