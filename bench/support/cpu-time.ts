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
