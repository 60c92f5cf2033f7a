import type { JobProgress } from '../wait-for-job.ts';

const WIDTH = 24;

/** `[ 45%] render   Rendering`: one line per event where there is no terminal to redraw (logs, pipes). */
export function progressLine(event: Pick<JobProgress, 'percent' | 'stage' | 'message'>): string {
  return `[${String(Math.round(event.percent)).padStart(3)}%] ${event.stage.padEnd(8)} ${event.message}`;
}

/** `███████░░░░░░░░  45%  render · Rendering`, cut to the terminal's width. */
export function progressBar(
  event: Pick<JobProgress, 'percent' | 'stage' | 'message'>,
  columns: number,
): string {
  const percent = Math.max(0, Math.min(100, event.percent));
  const filled = Math.round((percent / 100) * WIDTH);
  const line = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)} ${String(Math.round(percent)).padStart(3)}%  ${event.stage} · ${event.message}`;
  return line.length > columns - 1 ? `${line.slice(0, Math.max(0, columns - 2))}…` : line;
}

/** Shows progress on stderr: a bar redrawn in place on a terminal, else one line per event. */
export class ProgressDisplay {
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(event: Pick<JobProgress, 'percent' | 'stage' | 'message'>): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${progressBar(event, this.stream.columns || 80)}`);
      this.drawn = true;
    } else {
      this.stream.write(`${progressLine(event)}\n`);
    }
  }

  /** Ends the bar's line so later output starts on its own. */
  done(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
