// A brand kit's banned topics (spec 2 §2.4): found in a text as whole words or phrases, in any case, in the
// singular or a simple plural ("layoff" finds "Layoffs", "policies" finds "policy"), with spaces, hyphens or
// underscores between the words of a phrase ("crypto currency" finds "crypto-currency").
import nlp from 'compromise';
import { ApiError } from '../../platform/errors.ts';
import { pluralize } from './english.ts';

export interface BannedTopicHit {
  /** The topic as the kit lists it. */
  topic: string;
  /** The words in the text that named it. */
  text: string;
  index: number;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A word with its plural and singular forms: compromise reads it as a noun ("children", "policy"; "news" and
 * "series" stay as they are), and the regular plural is added too, since a form that never occurs costs nothing.
 */
function numberForms(word: string): string[] {
  if (!/\p{L}$/u.test(word)) return [word];
  // Each transform rewrites its document in place, so each reads a fresh one.
  const noun = () => {
    const doc = nlp(word);
    doc.tag('Noun');
    return doc.nouns();
  };
  const forms = [word, pluralize(word), noun().toPlural().text(), noun().toSingular().text()];
  return [...new Set(forms.filter((f) => f.trim() !== ''))];
}

function topicPattern(topic: string): RegExp | undefined {
  const words = topic
    .normalize('NFKC')
    .trim()
    .split(/[\s_-]+/)
    .filter(Boolean);
  const last = words.pop();
  if (last === undefined) return undefined;
  const head = words.map((w) => `${escape(w)}[\\s_-]+`).join('');
  const tails = numberForms(last)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}])${head}(?:${tails})(?![\\p{L}\\p{N}])`, 'iu');
}

/** Finds a kit's banned topics in texts; built once per kit. */
export class BannedTopics {
  private readonly patterns: ReadonlyArray<{ topic: string; re: RegExp }>;

  constructor(topics: readonly string[]) {
    this.patterns = topics.flatMap((topic) => {
      const re = topicPattern(topic);
      return re ? [{ topic, re }] : [];
    });
  }

  get size(): number {
    return this.patterns.length;
  }

  /** Every banned topic the text names, in the kit's order. */
  findAll(text: string): BannedTopicHit[] {
    const normalized = text.normalize('NFKC');
    return this.patterns.flatMap(({ topic, re }) => {
      const m = re.exec(normalized);
      return m ? [{ topic, text: m[0], index: m.index }] : [];
    });
  }

  find(text: string): BannedTopicHit | undefined {
    return this.findAll(text)[0];
  }
}

/**
 * 422 BRAND_TOPIC_BANNED: the request is well formed but asks for what the selected kit rules out, so it is
 * refused before anything is charged, like the spec's other brand-kit refusals (BRAND_CONFIRMATION_REQUIRED).
 */
export function bannedTopicError(field: string, hit: BannedTopicHit): ApiError {
  return new ApiError(
    422,
    'BRAND_TOPIC_BANNED',
    `The ${field} mentions "${hit.text}", and "${hit.topic}" is a banned topic of the selected brand kit. ` +
      "Rephrase it without that topic, or remove the topic from the kit's banned_topics; nothing was charged.",
    {
      details: {
        fields: [{ field, message: `mentions the banned topic "${hit.topic}"` }],
        banned_topic: hit.topic,
      },
    },
  );
}
