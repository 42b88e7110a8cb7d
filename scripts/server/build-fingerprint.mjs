// Decides whether a Next build directory is out of date: a hash over everything that goes into a build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MAPLIBRE_FILES } from './maplibre-files.mjs';

const INPUTS = ['app', 'components', 'lib', 'public', 'scripts/server/compress-static.mjs', 'next.config.js', 'package-lock.json', 'postcss.config.mjs', 'tsconfig.json', 'instrumentation.ts'];
// MapLibre's files in public/ are copies of the locked package (maplibre-files.mjs): package-lock.json stands for them.
const SKIP = new Set(['node_modules', '.next', ...MAPLIBRE_FILES]);
const STAMP = '.fleetmap-build-fingerprint';

function walk(root, path, out) {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (SKIP.has(name) || name.endsWith('.test.ts') || name.endsWith('.test.tsx')) continue;
      walk(root, join(path, name), out);
    }
  } else {
    out.push([relative(root, path), readFileSync(path)]);
  }
}

export function sourceFingerprint(root) {
  const files = [];
  for (const input of INPUTS) walk(root, join(root, input), files);
  const hash = createHash('sha256');
  for (const [name, content] of files) hash.update(name).update('\0').update(content).update('\0');
  return hash.digest('hex');
}

export function buildIsCurrent(root, distDir) {
  const stamp = join(root, distDir, STAMP);
  if (!existsSync(join(root, distDir, 'BUILD_ID')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === sourceFingerprint(root);
}

export function markBuilt(root, distDir) {
  writeFileSync(join(root, distDir, STAMP), sourceFingerprint(root) + '\n');
}
