// The prompt of a generated B-roll still (spec 1 §4.5: "script-derived prompts with brand name and logo
// removed"): the sentence it illustrates and the video's topic, with the brand's name, its website (and any
// other web address) and logo words taken out, so the image model is never asked to draw a brand mark.

export interface StillPromptInput {
  /** The narrated sentence the still shows under. */
  sentence: string;
  topic?: string;
  /** The whole script: what a sentence left empty by the removals is drawn from instead. */
  script: string;
  brand?: { name?: string; website_url?: string };
  shape: 'portrait' | 'landscape' | 'square';
}

/** Keeps a prompt inside every model's limit (DALL·E 2 takes 1000 characters). */
const MAX_SUBJECT_CHARS = 600;
const MAX_TOPIC_CHARS = 200;
const WEB_ADDRESS = /\b(?:https?:\/\/)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:\/[^\s]*)?/gi;
const LOGO_WORDS = /\b(?:logo(?:s|type|types)?|wordmarks?|brand ?marks?)\b/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The brand's name and its website's own name ("restful" of restful-sleep.example), as whole words. */
function brandPatterns(brand: StillPromptInput['brand']): RegExp[] {
  const names = new Set<string>();
  const name = brand?.name?.trim();
  if (name) names.add(name);
  if (brand?.website_url) {
    try {
      const label = new URL(brand.website_url).hostname.replace(/^www\./, '').split('.')[0];
      if (label && label.length >= 3) {
        names.add(label);
        if (label.includes('-')) names.add(label.replace(/-/g, ' '));
      }
    } catch {
      // Not a URL: the web-address rule still removes it where it is written out.
    }
  }
  return [...names].map(
    (n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?:['’]s)?(?![\\p{L}\\p{N}])`, 'giu'),
  );
}

/** The text with brand names, web addresses and logo words removed, and the punctuation left tidy. */
export function withoutBrand(text: string, brand: StillPromptInput['brand']): string {
  let cleaned = text.replace(WEB_ADDRESS, ' ');
  for (const pattern of brandPatterns(brand)) cleaned = cleaned.replace(pattern, ' ');
  cleaned = cleaned.replace(LOGO_WORDS, ' ');
  return cleaned
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([,;:])(?=[,.;:!?])/g, '')
    .replace(/([.;:!?])(?:\s*[.;:!?])+/g, '$1')
    .replace(/^[\s,.;:!?-]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Whether a text says something: at least two words (a lone "Visit" left by the removals does not). */
function hasWords(text: string): boolean {
  return (text.match(/[\p{L}\p{N}]{2,}/gu) ?? []).length >= 2;
}

/** The prompt of the still for one sentence. */
export function stillPrompt(input: StillPromptInput): string {
  const sentence = withoutBrand(input.sentence, input.brand);
  const topic = input.topic ? withoutBrand(input.topic, input.brand) : '';
  const subject = hasWords(sentence)
    ? sentence
    : hasWords(topic)
      ? topic
      : withoutBrand(input.script, input.brand);
  const frame = { portrait: 'vertical', landscape: 'horizontal', square: 'square' }[input.shape];
  const context =
    hasWords(topic) && topic !== subject
      ? ` The video is about ${clip(topic, MAX_TOPIC_CHARS).replace(/[.!?]+$/, '')}.`
      : '';
  return (
    `A photorealistic ${frame} photograph for a short video, showing what this line says: "${clip(subject, MAX_SUBJECT_CHARS)}".${context}` +
    ' Natural light, real people and places, no text, lettering, signs, trademarks or watermarks.'
  );
}
