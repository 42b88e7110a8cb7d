// MapLibre 6 loads its worker as a module from a URL, and the pages with a map load MapLibre itself as the module file
// it ships (lib/map-style/maplibre-files.ts says why). Serving both from our own origin keeps the CSP tight and the
// map working offline. Copied at dev/build time so the committed tree holds no vendored bundle.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAPLIBRE_FILES } from './maplibre-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('maplibre-gl/package.json'));
mkdirSync(join(root, 'public'), { recursive: true });
for (const file of MAPLIBRE_FILES) copyFileSync(join(pkgDir, 'dist', file), join(root, 'public', file));
