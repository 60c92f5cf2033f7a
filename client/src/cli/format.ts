/** 60 → "$0.60". */
export function usd(cents: number): string {
  return `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** 1_234_567 → "1.2 MB". */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** { min: 20, typical: 40, max: 90 } → "about 40 s (20–90 s)". */
export function renderTime(estimate: { min: number; typical?: number | undefined; max: number }): string {
  const seconds = (s: number) => (s >= 120 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);
  return estimate.typical !== undefined
    ? `about ${seconds(estimate.typical)} (${seconds(estimate.min)}–${seconds(estimate.max)})`
    : `${seconds(estimate.min)}–${seconds(estimate.max)}`;
}
