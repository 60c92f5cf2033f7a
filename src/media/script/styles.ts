// How a content style changes delivery beyond word choice: sentence rhythm.
import { capitalize } from './english.ts';
import { splitSentences } from './sentences.ts';
import type { ContentStyle } from './writer.ts';

const TONE_STYLES: ReadonlyArray<readonly [RegExp, ContentStyle]> = [
  [/energetic|energy|bold|hype|upbeat|exciting|punchy|dynamic/i, 'energetic'],
  [/calm|sooth|gentle|relax|soft|peaceful|mindful/i, 'calm'],
  [/inspir|motivat|aspiration|uplift|empower/i, 'inspirational'],
  [/playful|funny|witty|humou?r|fun\b|cheeky|entertain/i, 'entertaining'],
  [/educat|informative|teach|explain/i, 'educational'],
  [/professional|formal|corporate|authoritative|expert/i, 'professional'],
];

/** The style a brand's free-text tone ("bold and playful") points to, if any. */
export function styleFromTone(tone: string | undefined): ContentStyle | undefined {
  if (!tone) return undefined;
  return TONE_STYLES.find(([re]) => re.test(tone))?.[1];
}

/** Energetic delivery breaks long sentences at their joints into short, punchy ones. */
function punchUp(line: string): string {
  return splitSentences(line)
    .map((sentence) => {
      if (sentence.split(/\s+/).length < 13) return sentence;
      // ", and" splits only before a new subject, so lists ("a, b, and c") stay whole.
      const m =
        /^(.{12,}?)(?:, and (?=(?:it|they|you|we|that|this|there|the|your)\b)|, but |; | — )(.{12,})$/.exec(
          sentence,
        );
      if (!m) return sentence;
      const rest = m[0].slice(m[1]!.length).startsWith(', but ') ? `But ${m[2]!}` : capitalize(m[2]!);
      return `${m[1]!}. ${rest}`;
    })
    .join(' ');
}

/** Calm delivery avoids exclamations. */
function softenDown(line: string): string {
  return line.replace(/!/g, '.');
}

export function applyRhythm(line: string, style: ContentStyle): string {
  switch (style) {
    case 'energetic':
      return punchUp(line);
    case 'calm':
      return softenDown(line);
    case 'professional':
    case 'educational':
    case 'inspirational':
    case 'entertaining':
      return line;
  }
}
