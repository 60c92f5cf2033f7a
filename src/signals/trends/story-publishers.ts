// The publishers that carried a story: the domains of its news items and of every article its items link
// (a search trend's news items, a post's article), one entry per organisation, platforms left out.
import { linkDomain } from '../sources/link-domain.ts';
import { publisherOf, type Publisher } from './publishers.ts';
import type { Story } from './story.ts';

export interface StoryPublisher extends Publisher {
  /** The latest time an item of the story carried it (ms); undefined when none of those items is timed. */
  seenAt: number | undefined;
}

export function storyPublishers(story: Story): StoryPublisher[] {
  const byKey = new Map<string, StoryPublisher>();
  for (const { item, at } of story.items) {
    const domains = item.links.map((l) => l.domain || linkDomain(l.url) || '');
    if (item.kind === 'news' && item.domain) domains.push(item.domain);
    for (const domain of domains) {
      if (domain === '') continue;
      const publisher = publisherOf(domain);
      if (publisher.class === 'platform') continue;
      const seen = byKey.get(publisher.key);
      if (!seen) byKey.set(publisher.key, { ...publisher, seenAt: at });
      else if (at !== undefined && (seen.seenAt === undefined || at > seen.seenAt)) seen.seenAt = at;
    }
  }
  return [...byKey.values()];
}
