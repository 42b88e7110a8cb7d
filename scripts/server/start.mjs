// `npm start`: build when the sources changed since the last build, then serve the app.
// With no PARTNER_API_BASE_URL the server starts the embedded simulator itself (see instrumentation.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIfStale, ROOT } from './next-build.mjs';

process.env.NEXT_TELEMETRY_DISABLED = '1';
try {
  if (buildIfStale()) console.log('Build finished.');
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const port = process.env.PORT || '3000';
// Loopback by default: set HOST=0.0.0.0 to serve a wall display on another machine.
const host = process.env.HOST || '127.0.0.1';
console.log(`Fleetmap: http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`);
const child = spawn(process.execPath, [join(ROOT, 'scripts', 'server', 'server.mjs'), '--port', port, '--host', host], { cwd: ROOT, stdio: 'inherit', env: process.env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
