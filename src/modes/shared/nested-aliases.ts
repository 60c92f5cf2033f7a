import { isPlainObject } from '../../platform/generation/parse-request.ts';

// Aliases of spec 1 §4.2 that map into an object field rather than renaming a field.

function deprecated(warnings: string[], alias: string, canonical: string): void {
  warnings.push(`"${alias}" is a deprecated alias; send "${canonical}" instead.`);
}

/** Moves `alias` into `body[objectField][key]` unless the object already sets it (the canonical name wins). */
function foldInto(
  body: Record<string, unknown>,
  alias: string,
  objectField: string,
  key: string,
  map: (v: unknown) => unknown,
  warnings: string[],
) {
  if (!(alias in body)) return;
  const value = body[alias];
  delete body[alias];
  deprecated(warnings, alias, `${objectField}.${key}`);
  let target = body[objectField];
  if (target === undefined) target = {};
  else if (typeof target === 'string') target = { preset: target };
  else if (typeof target === 'boolean') target = { enabled: target };
  if (!isPlainObject(target)) return;
  if (!(key in target)) target[key] = map(value);
  body[objectField] = target;
}

const CAPTION_POSITION_ALIASES: Record<string, string> = { bottom: 'lower_third', middle: 'center' };

export function foldCaptionAliases(body: Record<string, unknown>, warnings: string[]): void {
  foldInto(
    body,
    'caption_position',
    'caption_style',
    'position',
    (v) => (typeof v === 'string' ? (CAPTION_POSITION_ALIASES[v] ?? v) : v),
    warnings,
  );
  foldInto(body, 'caption_highlight_color', 'caption_style', 'highlight_color', (v) => v, warnings);
}

export function foldMusicAliases(body: Record<string, unknown>, warnings: string[]): void {
  foldInto(body, 'music_volume', 'music', 'volume', (v) => v, warnings);
}

export function foldProgressBarAliases(body: Record<string, unknown>, warnings: string[]): void {
  if (!('progress_bar_enabled' in body)) return;
  const enabled = body.progress_bar_enabled;
  delete body.progress_bar_enabled;
  deprecated(warnings, 'progress_bar_enabled', 'progress_bar');
  if (!('progress_bar' in body)) body.progress_bar = { enabled };
}
