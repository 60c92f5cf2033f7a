// How a child process is started at the lowest priority, for work nobody waits for (the background library).
import { spawnSync } from 'node:child_process';

/** 'background': lowest CPU priority (nice 19) and, where the system allows, the idle I/O class. */
export type ProcessPriority = 'normal' | 'background';

export interface Command {
  command: string;
  args: string[];
}

let launcher: string[] | undefined;

/**
 * The wrappers that lower what they exec, each kept only if it runs here (ionice can be missing or refused
 * by a container). Both exec in place, so the child keeps its pid for signals.
 */
function backgroundLauncher(): string[] {
  if (launcher) return launcher;
  const works = (wrapper: string[]) => spawnSync(wrapper[0]!, [...wrapper.slice(1), 'true']).status === 0;
  launcher = [
    ['nice', '-n', '19'],
    ['ionice', '-c', '3'],
  ]
    .filter(works)
    .flat();
  return launcher;
}

/**
 * The command that starts `command` at `priority`. Lowered through the launcher rather than by setpriority
 * after spawn: Linux keeps one nice value per thread, and threads an encoder starts before the parent gets to
 * renice it would keep running at normal priority.
 */
export function commandAt(priority: ProcessPriority, command: string, args: readonly string[]): Command {
  const wrapper = priority === 'background' ? backgroundLauncher() : [];
  return wrapper.length === 0
    ? { command, args: [...args] }
    : { command: wrapper[0]!, args: [...wrapper.slice(1), command, ...args] };
}
