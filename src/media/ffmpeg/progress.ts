// Parsing of ffmpeg's `-progress` key=value stream into output-time seconds.

/**
 * Seconds of output written, from one `-progress` line, or null when the line carries no usable time.
 * `out_time_ms` is in microseconds too (a long-standing ffmpeg quirk), so both keys divide by 1e6.
 */
export function parseProgressLine(line: string): number | null {
  const eq = line.indexOf('=');
  if (eq < 0) return null;
  const key = line.slice(0, eq).trim();
  if (key !== 'out_time_us' && key !== 'out_time_ms') return null;
  const raw = line.slice(eq + 1).trim();
  if (!/^-?\d+$/.test(raw)) return null;
  const micros = Number(raw);
  if (!Number.isFinite(micros) || micros < 0) return null;
  return micros / 1e6;
}

/**
 * Returns a feeder for raw stdout chunks that reports each new output time once. Chunks may split lines
 * anywhere; both `out_time_us` and `out_time_ms` appear per block, so repeated equal values are dropped.
 */
export function createProgressParser(onSeconds: (seconds: number) => void): (chunk: string) => void {
  let pending = '';
  let last = -1;
  return (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const seconds = parseProgressLine(line);
      if (seconds !== null && seconds !== last) {
        last = seconds;
        onSeconds(seconds);
      }
    }
  };
}
