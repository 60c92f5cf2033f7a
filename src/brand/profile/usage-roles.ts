// Where a CSS rule is used: on call-to-action buttons, links, headings, the header, the footer or the
// page itself. Read from the selector's words and from the elements it matches on the crawled pages.
import * as csstree from 'css-tree';
import { tagOf, type PageNode, type SiteDocument } from './site-documents.ts';

export type UsageRole = 'cta' | 'link' | 'heading' | 'header' | 'footer' | 'page' | 'other';

const SELECTOR_ROLES: [UsageRole, RegExp][] = [
  ['cta', /(?:^|[.#\s_-])(btn|button|cta)(?:$|[\s.#:[\]_-])|(^|\s)button\b|type=["']?(submit|button)/i],
  [
    'heading',
    /(?:^|[\s>+~])h[1-3](?:$|[.#:[\s])|(?:^|[.#\s_-])(title|headline|heading|hero)(?:$|[\s.#:[\]_-])/i,
  ],
  ['link', /(?:^|[\s>+~])a(?:$|[.#:[\s])|(?:^|[.#\s_-])link(?:$|[\s.#:[\]_-])/i],
  ['header', /(?:^|[\s>+~.#_-])(header|nav|navbar|topbar|masthead|banner)(?:$|[\s.#:[\]_-])/i],
  ['footer', /footer/i],
  ['page', /^(?::root|html|body|main)(?:[.#:[][^\s,>+~]*)?$/i],
];

/** The roles a selector's own words give (a selector list is read part by part). */
export function selectorRoles(selector: string): Set<UsageRole> {
  const roles = new Set<UsageRole>();
  for (const part of selector.split(',')) {
    const trimmed = part.trim();
    for (const [role, pattern] of SELECTOR_ROLES) if (pattern.test(trimmed)) roles.add(role);
  }
  return roles;
}

/** State selectors (hover, focus, active, visited) describe a passing look, not the brand's resting colours. */
export function isStateSelector(selector: string): boolean {
  return selector
    .split(',')
    .every((part) => /:(hover|focus|focus-visible|focus-within|active|visited|disabled)\b/i.test(part));
}

/** The selector list without pseudo-classes and pseudo-elements, so it can be matched against a static page. */
function staticSelector(selector: string): string | undefined {
  try {
    const ast = csstree.parse(selector, { context: 'selectorList' });
    csstree.walk(ast, {
      visit: 'Selector',
      enter(node) {
        node.children.forEach((child, item, list) => {
          if (child.type === 'PseudoClassSelector' || child.type === 'PseudoElementSelector')
            list.remove(item);
        });
      },
    });
    const text = csstree.generate(ast).trim();
    return text && !/(^|,)\s*(,|$)/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

function elementRole(node: PageNode): UsageRole {
  const tag = tagOf(node);
  const words = `${node.attr('class') ?? ''} ${node.attr('id') ?? ''}`;
  if (
    tag === 'button' ||
    node.attr('role') === 'button' ||
    (tag === 'input' && /^(submit|button)$/i.test(node.attr('type') ?? '')) ||
    /(^|[\s_-])(btn|button|cta)($|[\s_-])/i.test(words)
  )
    return 'cta';
  if (/^h[1-3]$/.test(tag)) return 'heading';
  if (tag === 'a') return 'link';
  if (tag === 'header' || tag === 'nav' || node.closest('header, nav, [role="banner"]').length > 0)
    return 'header';
  if (tag === 'footer' || node.closest('footer').length > 0) return 'footer';
  if (tag === 'html' || tag === 'body' || tag === 'main') return 'page';
  return 'other';
}

export interface SelectorUsage {
  /** Elements the selector matches across the crawled pages (capped). */
  matches: number;
  roles: Set<UsageRole>;
}

const MAX_MATCHES = 50;

/** Matches selectors against the crawled pages, once per selector. */
export class UsageIndex {
  private readonly cache = new Map<string, SelectorUsage | undefined>();
  constructor(private readonly docs: SiteDocument[]) {}

  /** How a selector is used on the pages; undefined when it cannot be matched statically. */
  usage(selector: string): SelectorUsage | undefined {
    if (this.cache.has(selector)) return this.cache.get(selector);
    const query = staticSelector(selector);
    let result: SelectorUsage | undefined;
    if (query) {
      result = { matches: 0, roles: new Set() };
      try {
        for (const doc of this.docs) {
          for (const el of doc.$(query).toArray()) {
            if (result.matches >= MAX_MATCHES) break;
            result.matches += 1;
            result.roles.add(elementRole(doc.$(el)));
          }
        }
      } catch {
        result = undefined;
      }
    }
    this.cache.set(selector, result);
    return result;
  }
}
