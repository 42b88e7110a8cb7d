import 'server-only';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// PGlite corrupts a directory that two processes open at once, and it has no lock of its own: a lock file with
// the owner's pid keeps a second Fleetmap out. A lock left by a process that no longer runs (a crash, a kill -9)
// is taken over, so a crash never needs a hand to clean up.

export const LOCK_FILE = 'fleetmap.lock';

/** Paths this process holds (a second open in the same process is refused as well). */
const held = new Set<string>();

export class DataDirInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirInUseError';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the directory's lock or throws DataDirInUseError; returns the release function (safe to call twice). */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  if (held.has(path)) throw new DataDirInUseError(`The data directory ${dir} is already open in this process; it is opened once per process.`);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      held.add(path);
      return release(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(path);
    // Our own pid in a lock we do not hold is a previous process's (a container restarts with the same pid).
    if (owner !== null && owner !== process.pid && processAlive(owner)) {
      throw new DataDirInUseError(
        `The data directory ${dir} is in use by another Fleetmap process (pid ${owner}); stop that process, or give this one its own FLEETMAP_DATA_DIR or a DATABASE_URL.`,
      );
    }
    // Stale (or half-written by a process that died while writing it): take it over.
    try {
      unlinkSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  throw new DataDirInUseError(`The data directory ${dir} is being locked by another process at the same moment; try again.`);
}

function release(path: string): () => void {
  const onExit = () => free();
  process.once('exit', onExit);
  function free() {
    if (!held.delete(path)) return;
    process.removeListener('exit', onExit);
    // Only our own lock: never a successor's.
    if (readOwner(path) !== process.pid) return;
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
  return free;
}
