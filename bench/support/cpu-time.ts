// CPU time of a benchmark run: wall time depends on whatever else loads the machine, CPU seconds much less.
import { readFileSync } from 'node:fs';

/** CPU seconds of terminated child processes (cutime + cstime, in USER_HZ = 100 ticks/s on Linux). */
export function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds of this Node process so far. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

export interface Timing {
  /** Seconds. */
  wall: number;
  /** CPU seconds of the child processes that ended meanwhile (ffmpeg, voices). */
  childCpu: number;
  /** CPU seconds of this Node process meanwhile. */
  nodeCpu: number;
}

/** Runs `work` and measures its wall time and the CPU time it spent here and in child processes. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; timing: Timing }> {
  const wall = performance.now();
  const child = childCpuSeconds();
  const own = ownCpuSeconds();
  const result = await work();
  return {
    result,
    timing: {
      wall: (performance.now() - wall) / 1000,
      childCpu: childCpuSeconds() - child,
      nodeCpu: ownCpuSeconds() - own,
    },
  };
}
