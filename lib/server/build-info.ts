import 'server-only';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '@/lib/model';
import pkg from '../../package.json';

let cached: BuildInfo | null = null;

/** The running build: the package version and Next.js's build id (BUILD_ID in the build directory). */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  let buildId: string | null = null;
  try {
    buildId = readFileSync(join(process.cwd(), process.env.FLEETMAP_DIST_DIR || '.next', 'BUILD_ID'), 'utf8').trim() || null;
  } catch {
    // `next dev` writes no BUILD_ID: no build id to show.
  }
  cached = { version: pkg.version, buildId };
  return cached;
}
