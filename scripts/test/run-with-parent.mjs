// Runs a command and makes sure it stops by itself: when the process that started us goes away,
// or after FLEETMAP_MAX_LIFETIME_S seconds (default 30 minutes). Used for servers started by tests.
import { spawn } from 'node:child_process';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: run-with-parent.mjs <command> [args...]');
  process.exit(2);
}
const parent = process.ppid;
const maxLifetimeS = Number(process.env.FLEETMAP_MAX_LIFETIME_S || 1800);
const child = spawn(cmd, args, { stdio: 'inherit', env: process.env });

// The parent gone, so may be the reader of our output: a failed write must not stop us before the child is.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

function stop(reason) {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    if (reason) console.error(`[run-with-parent] stopping ${cmd}: ${reason}`);
  }
}
const watch = setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    stop('parent process is gone');
  }
}, 1000);
const lifetime = setTimeout(() => stop(`maximum lifetime of ${maxLifetimeS}s reached`), maxLifetimeS * 1000);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop());
child.on('exit', (code, signal) => {
  clearInterval(watch);
  clearTimeout(lifetime);
  process.exit(code ?? (signal ? 1 : 0));
});
