// MapLibre 6 loads its worker as a module from a URL; serving it from our own origin keeps the CSP tight
// and the map working offline. Copied at dev/build time so the committed tree holds no vendored bundle.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('maplibre-gl/package.json'));
mkdirSync(join(root, 'public'), { recursive: true });
copyFileSync(join(pkgDir, 'dist', 'maplibre-gl-worker.mjs'), join(root, 'public', 'maplibre-gl-worker.mjs'));
