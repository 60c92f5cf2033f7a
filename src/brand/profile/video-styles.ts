// video_styles and anti_styles: values of spec 1 §4.2 content_style (the only style enum videos take),
// scored against the profile's tones; the best fits are recommended, the clashes are to be avoided.
import { CONTENT_STYLES, type ContentStyle } from '../../media/script/writer.ts';
import { STYLE_FIT, type Tone } from './tones.ts';

export interface StyleAdvice {
  video_styles: ContentStyle[];
  anti_styles: ContentStyle[];
}

const MAX_STYLES = 3;
const MAX_ANTI_STYLES = 2;

/** Tones listed first weigh more: the first tone is the profile's strongest. */
export function styleAdvice(tones: readonly Tone[]): StyleAdvice {
  const score = new Map<ContentStyle, number>(CONTENT_STYLES.map((s) => [s, 0]));
  tones.forEach((tone, i) => {
    const weight = 1 / (1 + i * 0.5);
    for (const [style, fit] of Object.entries(STYLE_FIT[tone]) as [ContentStyle, number][]) {
      score.set(style, (score.get(style) ?? 0) + fit * weight);
    }
  });
  const ranked = [...CONTENT_STYLES].sort((a, b) => score.get(b)! - score.get(a)!);
  const video = ranked.filter((s) => score.get(s)! > 0).slice(0, MAX_STYLES);
  const anti = [...ranked]
    .reverse()
    .filter((s) => score.get(s)! < 0)
    .slice(0, MAX_ANTI_STYLES);
  // A profile always recommends at least one style: professional is the API's default.
  return {
    video_styles: video.length > 0 ? video : ['professional'],
    anti_styles: anti.filter((s) => !video.includes(s)),
  };
}
