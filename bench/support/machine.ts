// What the figures were measured on: they mean little without it.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { findChromium } from '../../scripts/test/find-chromium.mjs';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  /** 1-minute load average when the run started: other work on the machine skews timings. */
  loadAverageAtStart: number;
  commit: string;
}

function gitCommit(root: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

export function describeMachine(root: string): Machine {
  let chromium: string;
  try {
    // Debian's wrapper script prints shell noise on stderr; only the version line matters.
    chromium = execFileSync(findChromium({ install: false }), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    chromium = 'not found';
  }
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium,
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
    commit: gitCommit(root),
  };
}
