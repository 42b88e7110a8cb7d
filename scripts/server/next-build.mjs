// Builds the app into a dist directory unless that build is already current.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, markBuilt } from './build-fingerprint.mjs';
import { compressStatic } from './compress-static.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NEXT_BIN = join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

export function buildIfStale({ distDir = '.next', env = {}, force = false } = {}) {
  if (!force && buildIsCurrent(ROOT, distDir)) return false;
  const fullEnv = { ...process.env, ...env, FLEETMAP_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' };
  const copy = spawnSync(process.execPath, [join(ROOT, 'scripts', 'server', 'copy-maplibre.mjs')], { stdio: 'inherit', env: fullEnv });
  if (copy.status !== 0) throw new Error('Copying MapLibre and its worker failed.');
  // The offline map's detailed land, cut from the coastline package for the network's area (when stale).
  const land = spawnSync(process.execPath, [join(ROOT, 'scripts', 'data', 'clip-land.mjs'), '--if-stale'], { stdio: 'inherit', env: fullEnv });
  if (land.status !== 0) throw new Error('Building the basemap land (scripts/data/clip-land.mjs) failed.');
  const res = spawnSync(process.execPath, [NEXT_BIN, 'build'], { cwd: ROOT, stdio: 'inherit', env: fullEnv });
  if (res.status !== 0) throw new Error(`next build failed (exit ${res.status}).`);
  compressStatic(ROOT, distDir);
  markBuilt(ROOT, distDir);
  return true;
}
