// Finds a Chromium for the e2e tests without ever downloading a browser of its own:
// CHROMIUM_PATH, else /usr/bin/chromium, else Debian's package when we can install it (root on Debian),
// else one clear sentence saying what to install.
// CommonJS so that both Playwright's config loader and the ESM scripts can load it.
const { execFileSync, spawnSync } = require('node:child_process');
const { accessSync, constants, existsSync } = require('node:fs');

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findChromium({ install = true, log = console.error } = {}) {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (executable(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which is not an executable file.`);
  }
  if (executable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (install && isRoot && existsSync('/etc/debian_version')) {
    log("Chromium not found: installing Debian's chromium package (apt-get install -y chromium)...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const res = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (res.status === 0 && executable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  }
  throw new Error(
    "No Chromium found for the end-to-end tests: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable.",
  );
}

function chromiumVersion(path) {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown version';
  }
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

module.exports = { findChromium, chromiumVersion, CHROMIUM_ARGS };

if (require.main === module) {
  try {
    const path = findChromium();
    console.log(`${path} (${chromiumVersion(path)})`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
