// Copies the map's label glyphs (SDF glyph PBFs, one file per 256 code points) into public/fonts/<font>/<range>.pbf,
// so MapLibre can draw text with no request leaving the app's origin.
//
// Source: `tileserver-gl-styles@2.0.0` (fonts/, Noto Sans: SIL Open Font License). Not a dependency: this script
// runs `npm pack tileserver-gl-styles@2.0.0` into a temp dir, untars it, copies, and removes the temp dir.
//
//   node scripts/data/basemap-glyphs.mjs                       # downloads the package (~0.6 MB tarball)
//   node scripts/data/basemap-glyphs.mjs --package-dir <dir>   # an already unpacked `package/` folder
//
// Fonts: only "Noto Sans Regular". Version 2.0.0 of the package ships no other face (no Noto Sans Bold), so the
// style uses Regular everywhere; add a face here and in lib/map-style/offline-style.ts together.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchPackage } from './basemap-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = 'tileserver-gl-styles@2.0.0';
const FONTS = ['Noto Sans Regular'];
// MapLibre asks for the 256-code-point block of every character it lays out. The blocks we ship:
const RANGES = [
  // Basic Latin + Latin-1 Supplement: ASCII stop names and route codes, plus accented letters (é, ñ, ü) and ·.
  '0-255',
  // Latin Extended-A/B: the rest of European Latin names (ł, ő, ș, č...).
  '256-511',
  // General Punctuation: en/em dashes – —, curly quotes ‘ ’ “ ”, bullet •, ellipsis … seen in stop names.
  '8192-8447',
];
// Other blocks (Greek, Cyrillic, CJK...) are not shipped: MapLibre logs a failed glyph request and skips those
// characters; it does not break the map.

function main() {
  const { dir, cleanup } = fetchPackage(PACKAGE);
  try {
    for (const font of FONTS) {
      const from = join(dir, 'fonts', font);
      if (!existsSync(from)) throw new Error(`${PACKAGE} has no fonts/${font}`);
      const to = join(root, 'public/fonts', font);
      mkdirSync(to, { recursive: true });
      for (const range of RANGES) {
        const file = `${range}.pbf`;
        copyFileSync(join(from, file), join(to, file));
        console.info(`copied ${font}/${file} (${statSync(join(to, file)).size} bytes)`);
      }
    }
  } finally {
    cleanup();
  }
}

main();
