// Subtitle timestamps, exact to the millisecond: the time is rounded to whole milliseconds once and every
// field is derived from that integer, so no floating-point digit can leak into the output.

function fields(seconds: number): [string, string, string, string] {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const ms = totalMs % 1000;
  const totalSec = (totalMs - ms) / 1000;
  const s = totalSec % 60;
  const m = ((totalSec - s) / 60) % 60;
  const h = Math.floor(totalSec / 3600);
  return [
    String(h).padStart(2, '0'),
    String(m).padStart(2, '0'),
    String(s).padStart(2, '0'),
    String(ms).padStart(3, '0'),
  ];
}

/** SubRip notation: `00:01:02,345`. */
export function srtTimestamp(seconds: number): string {
  const [h, m, s, ms] = fields(seconds);
  return `${h}:${m}:${s},${ms}`;
}

/** WebVTT notation: `00:01:02.345`. */
export function vttTimestamp(seconds: number): string {
  const [h, m, s, ms] = fields(seconds);
  return `${h}:${m}:${s}.${ms}`;
}
