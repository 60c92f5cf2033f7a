// An item's title as a headline: without the " - Publisher" tail that news feeds append (Google News,
// many publishers' own RSS), which would otherwise read as a shared word between unrelated stories and
// end up in a trend's topic.
import { getDomainWithoutSuffix } from 'tldts';
import { AGGREGATORS, PRIMARY_PUBLISHERS, publisherOf } from './publishers.ts';

const TAIL_SEPARATOR = /\s+[-–—|]\s+(?=[^-–—|]+$)/;
const MAX_TAIL_WORDS = 6;

function letters(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Listed publishers by name: an aggregator's item is often titled with the original publisher's name. */
const KNOWN_NAMES = new Set(
  [...Object.values(PRIMARY_PUBLISHERS).map((p) => p.name), ...AGGREGATORS.values()].map(letters),
);

export function headline(title: string, domain: string | undefined): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  const match = TAIL_SEPARATOR.exec(clean);
  if (!match) return clean;
  const tail = clean.slice(match.index + match[0].length);
  if (tail.split(' ').length > MAX_TAIL_WORDS) return clean;
  const said = letters(tail);
  const site = domain ? letters(getDomainWithoutSuffix(domain) ?? '') : '';
  const name = domain ? letters(publisherOf(domain).name) : '';
  const isPublisher = KNOWN_NAMES.has(said) || said === name || (site.length >= 2 && said.startsWith(site));
  return isPublisher ? clean.slice(0, match.index) : clean;
}
