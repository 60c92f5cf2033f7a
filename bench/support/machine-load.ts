// Whether a benchmark ran on a quiet machine. The 1-minute load average lags and counts the benchmark itself,
// so the judge is the CPU time spent during the run by processes that are not the benchmark's: the machine's busy
// time (/proc/stat) minus this process tree's CPU time (and PostgreSQL's, when the benchmark measures it).
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** Clock ticks per second of /proc times (USER_HZ; 100 on every Linux this runs on). */
const HZ = 100;
/** A run is quiet when other processes used at most this share of the machine's cores meanwhile. */
const QUIET_SHARE = 0.1;

interface ProcStat {
  pid: number;
  ppid: number;
  name: string;
  /** utime + stime + cutime + cstime, in seconds. */
  cpu: number;
}

function readProc(pid: string): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return {
    pid: Number(pid),
    ppid: Number(fields[1]),
    name: text.slice(text.indexOf('(') + 1, close),
    cpu: ticks / HZ,
  };
}

function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readProc)
    .filter((p): p is ProcStat => p !== undefined);
}

/** CPU seconds of this process, its live descendants, the children they reaped, and processes named `names`. */
function ownCpuSeconds(names: readonly string[]): number {
  const processes = allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const counted = new Set<number>();
  let total = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (counted.has(child.pid)) continue;
      counted.add(child.pid);
      total += child.cpu;
      walk(child.pid);
    }
  };
  const self = processes.find((p) => p.pid === process.pid);
  if (self) total += self.cpu;
  counted.add(process.pid);
  walk(process.pid);
  for (const p of processes) {
    if (!counted.has(p.pid) && names.includes(p.name)) {
      counted.add(p.pid);
      total += p.cpu;
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine since boot (everything but idle and iowait). */
function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [, ...values] = line.trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.slice(0, 8).reduce((sum, v) => sum + v, 0);
  return (total - ticks[3]! - ticks[4]!) / HZ;
}

export interface LoadReport {
  cores: number;
  loadBefore: number;
  loadAfter: number;
  /** Average number of cores other processes kept busy during the run. */
  otherCores: number;
  quiet: boolean;
}

export interface LoadWatch {
  finish(): LoadReport;
}

/**
 * Starts watching the machine. `countAsOwn` names processes whose CPU is part of what is measured although they
 * are not our descendants (e.g. `postgres` for a server the benchmark talks to).
 */
export function watchMachineLoad(countAsOwn: readonly string[] = []): LoadWatch {
  const cores = cpus().length;
  const loadBefore = loadavg()[0]!;
  const started = performance.now();
  const busy = machineBusySeconds();
  const own = ownCpuSeconds(countAsOwn);
  return {
    finish() {
      const wall = (performance.now() - started) / 1000;
      const other = Math.max(0, machineBusySeconds() - busy - (ownCpuSeconds(countAsOwn) - own));
      const otherCores = wall > 0 ? other / wall : 0;
      return {
        cores,
        loadBefore,
        loadAfter: loadavg()[0]!,
        otherCores,
        quiet: otherCores <= QUIET_SHARE * cores,
      };
    },
  };
}

const two = (n: number) => n.toFixed(2);

/** One line for the benchmark's output: the load before and after and what else ran meanwhile. */
export function describeLoad(report: LoadReport): string {
  return (
    `machine: ${report.cores} cores, load average ${two(report.loadBefore)} before → ${two(report.loadAfter)} after; ` +
    `other processes used ${two(report.otherCores)} cores during the run — ` +
    (report.quiet
      ? 'quiet run'
      : `LOADED run (more than ${QUIET_SHARE * 100} % of the cores): targets not judged`)
  );
}

/** A target's verdict: met or missed on a quiet run; never "met" when other work loaded the machine. */
export function verdict(met: boolean, report: LoadReport): string {
  if (!report.quiet) return 'not judged (loaded run)';
  return met ? 'met' : 'missed';
}
