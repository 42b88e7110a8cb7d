// A server process's CPU and memory as Linux counts them (/proc), for benchmarks that watch the app server: the
// process found by its command line and port, the processes it started, their CPU time (utime + stime) and their
// resident memory (VmRSS).
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Clock ticks per second of /proc/<pid>/stat's times. */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

export interface ProcSample {
  /** Milliseconds since the epoch. */
  at: number;
  /** Summed over the processes: CPU seconds so far (user + system), and resident memory in bytes. */
  cpuS: number;
  rssBytes: number;
  /** The processes summed: pid and command line. */
  processes: { pid: number; command: string }[];
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process ended meanwhile
  }
}

export function commandLine(pid: number): string | null {
  const raw = read(`/proc/${pid}/cmdline`);
  return raw === null ? null : raw.split('\0').filter(Boolean).join(' ');
}

/** /proc/<pid>/stat's fields after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  const raw = read(`/proc/${pid}/stat`);
  return raw === null ? null : raw.slice(raw.lastIndexOf(')') + 2).split(' ');
}

/** The process whose command line runs `script` with `--port <port>` (a wrapper that starts it names it too: the one whose own command is node with the script first). */
export function findServerPid(script: string, port: number): number | null {
  for (const pid of pids()) {
    const argv = read(`/proc/${pid}/cmdline`)?.split('\0') ?? [];
    const at = argv.findIndex((a) => a.endsWith(script));
    if (at === 1 && argv.includes('--port') && argv[argv.indexOf('--port') + 1] === String(port)) return pid;
  }
  return null;
}

/** `pid` and every process under it. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of pids()) {
    const ppid = Number(statFields(p)?.[1]);
    if (!Number.isFinite(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), p]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** CPU seconds and resident bytes of `pid` and the processes under it, now. */
export function sampleTree(pid: number): ProcSample {
  let ticks = 0;
  let rssBytes = 0;
  const processes: ProcSample['processes'] = [];
  for (const p of processTree(pid)) {
    const f = statFields(p);
    const status = read(`/proc/${p}/status`);
    if (f === null || status === null) continue;
    // utime and stime are fields 14 and 15 of stat; the slice starts at field 3.
    ticks += Number(f[11]) + Number(f[12]);
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    rssBytes += rss ? Number(rss[1]) * 1024 : 0;
    processes.push({ pid: p, command: commandLine(p) ?? '?' });
  }
  return { at: Date.now(), cpuS: ticks / CLOCK_TICKS, rssBytes, processes };
}
