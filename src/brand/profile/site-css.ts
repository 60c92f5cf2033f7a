// Every CSS declaration a site makes, parsed with css-tree from its linked stylesheets, its <style>
// blocks and its style attributes, each with the selector (or element) it applies to. Colours and fonts
// are both read from this one list.
import * as csstree from 'css-tree';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import { siteDocuments, tagOf, type PageNode } from './site-documents.ts';

export type CssOrigin = 'stylesheet' | 'style_block' | 'style_attribute';

export interface CssDeclaration {
  /** The rule's selector list, or for a style attribute a selector that describes the element. */
  selector: string;
  property: string;
  value: string;
  origin: CssOrigin;
}

export interface SiteCss {
  /** Declarations of style rules (not of @font-face), in source order. */
  declarations: CssDeclaration[];
  /** Custom property name → the values it is given, global definitions (:root, html, body) first. */
  customProperties: Map<string, string[]>;
  /** Family names declared by @font-face rules. */
  fontFaces: string[];
  /** URLs of @import rules (Google Fonts stylesheets among them). */
  imports: string[];
}

/** Rules that do not describe the page as it first shows: print styles and a dark theme the visitor opts into. */
const SKIPPED_MEDIA = /print|prefers-color-scheme:\s*dark/i;
const GLOBAL_SELECTOR = /^(?::root|html|body|\*)(?:\s*,\s*(?::root|html|body|\*))*$/i;
/** Bounds the work one hostile stylesheet can cause. */
const MAX_CSS_CHARS = 2_000_000;

/** A CSS string's text, or an identifier's name. */
export function stringOrIdent(node: csstree.CssNode): string | undefined {
  if (node.type === 'String') return node.value;
  if (node.type === 'Identifier') return node.name;
  return undefined;
}

function importUrl(prelude: csstree.AtrulePrelude | csstree.Raw | null): string | undefined {
  if (!prelude || prelude.type !== 'AtrulePrelude') return undefined;
  const first = prelude.children.first;
  if (!first) return undefined;
  if (first.type === 'Url') return first.value;
  if (first.type === 'String') return first.value;
  return undefined;
}

/** A selector standing for a style attribute's element: its region, tag, id and classes ("header a#x.btn"). */
function elementSelector(node: PageNode): string {
  const tag = tagOf(node);
  const id = node.attr('id') ? `#${node.attr('id')!.trim().split(/\s+/)[0]}` : '';
  const classes = (node.attr('class') ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => `.${c}`)
    .join('');
  const region =
    node.closest('header, nav, [role="banner"]').length > 0
      ? 'header '
      : node.closest('footer').length > 0
        ? 'footer '
        : '';
  return `${region}${tag}${id}${classes}`;
}

class CssCollector {
  readonly declarations: CssDeclaration[] = [];
  private readonly globalVars = new Map<string, string[]>();
  private readonly scopedVars = new Map<string, string[]>();
  readonly fontFaces: string[] = [];
  readonly imports: string[] = [];

  addSheet(css: string, origin: CssOrigin): void {
    const ast = csstree.parse(css.slice(0, MAX_CSS_CHARS), {
      parseCustomProperty: false,
      onParseError: () => undefined,
    });
    csstree.walk(ast, {
      visit: 'Atrule',
      enter: (node) => {
        const name = node.name.toLowerCase();
        if (name === 'import') {
          const url = importUrl(node.prelude);
          if (url) this.imports.push(url);
        } else if (name === 'font-face' && node.block) {
          for (const child of node.block.children) {
            if (child.type !== 'Declaration' || child.property.toLowerCase() !== 'font-family') continue;
            const family = child.value.type === 'Value' ? child.value.children.first : null;
            const text = family ? stringOrIdent(family) : csstree.generate(child.value).trim();
            if (text) this.fontFaces.push(text.replace(/^["']|["']$/g, '').trim());
          }
        }
      },
    });
    // The walker hands the enclosing at-rule to `this` of a plain function, so the collector is named here.
    const add = (selector: string, node: csstree.Declaration): void => this.add(selector, node, origin);
    csstree.walk(ast, {
      visit: 'Rule',
      enter(node) {
        const media = this.atrule;
        if (media && media.name.toLowerCase() === 'media' && media.prelude) {
          if (SKIPPED_MEDIA.test(csstree.generate(media.prelude))) return;
        }
        if (media && /keyframes$/i.test(media.name)) return;
        const selector = csstree.generate(node.prelude);
        for (const child of node.block.children) {
          if (child.type === 'Declaration') add(selector, child);
        }
      },
    });
  }

  addStyleAttribute(style: string, selector: string): void {
    const ast = csstree.parse(style.slice(0, MAX_CSS_CHARS), {
      context: 'declarationList',
      parseCustomProperty: false,
      onParseError: () => undefined,
    });
    csstree.walk(ast, {
      visit: 'Declaration',
      enter: (node) => this.add(selector, node, 'style_attribute'),
    });
  }

  private add(selector: string, node: csstree.Declaration, origin: CssOrigin): void {
    const property = node.property.trim();
    const value = csstree.generate(node.value).trim();
    if (property.startsWith('--')) {
      const table = GLOBAL_SELECTOR.test(selector.trim()) ? this.globalVars : this.scopedVars;
      const values = table.get(property);
      if (values) values.push(value);
      else table.set(property, [value]);
    }
    this.declarations.push({ selector, property: property.toLowerCase(), value, origin });
  }

  customProperties(): Map<string, string[]> {
    const merged = new Map(this.globalVars);
    for (const [name, values] of this.scopedVars) merged.set(name, [...(merged.get(name) ?? []), ...values]);
    return merged;
  }
}

const collected = new WeakMap<SiteCrawl, SiteCss>();

/** The site's CSS, parsed once per crawl; the same stylesheet or <style> block counts once. */
export function siteCss(crawl: SiteCrawl): SiteCss {
  const cached = collected.get(crawl);
  if (cached) return cached;
  const collector = new CssCollector();
  const seen = new Set<string>();
  const once = (css: string): boolean => {
    if (seen.has(css)) return false;
    seen.add(css);
    return true;
  };
  for (const sheet of crawl.stylesheets) if (once(sheet.css)) collector.addSheet(sheet.css, 'stylesheet');
  for (const doc of siteDocuments(crawl)) {
    doc.$('style').each((_, el) => {
      const css = doc.$(el).text();
      if (once(css)) collector.addSheet(css, 'style_block');
    });
    doc.$('body [style], body[style], html[style]').each((_, el) => {
      const style = doc.$(el).attr('style');
      if (style) collector.addStyleAttribute(style, elementSelector(doc.$(el)));
    });
  }
  const css: SiteCss = {
    declarations: collector.declarations,
    customProperties: collector.customProperties(),
    fontFaces: [...new Set(collector.fontFaces)],
    imports: [...new Set(collector.imports)],
  };
  collected.set(crawl, css);
  return css;
}

/**
 * A value with its var() references replaced by the custom properties' values (or the fallback after
 * the comma), recursively; `used` receives the names of the properties it went through. A reference that
 * cannot be resolved (unknown, or part of a cycle) is dropped.
 */
export function resolveVars(
  value: string,
  vars: ReadonlyMap<string, readonly string[]>,
  used: string[] = [],
  chain: readonly string[] = [],
): string {
  if (!value.includes('var(')) return value;
  const ast = csstree.parse(value, { context: 'value', onParseError: () => undefined });
  csstree.walk(ast, {
    visit: 'Function',
    enter(node, item, list) {
      if (node.name.toLowerCase() !== 'var' || !list) return;
      const children = node.children.toArray();
      const name = children[0]?.type === 'Identifier' ? children[0].name : undefined;
      const comma = children.findIndex((c) => c.type === 'Operator' && c.value === ',');
      const fallback =
        comma >= 0
          ? children
              .slice(comma + 1)
              .map((c) => csstree.generate(c))
              .join(' ')
          : '';
      let resolved = '';
      const defined = name ? vars.get(name)?.[0] : undefined;
      if (name && defined !== undefined && !chain.includes(name)) {
        if (!used.includes(name)) used.push(name);
        resolved = resolveVars(defined, vars, used, [...chain, name]);
      }
      if (!resolved.trim()) resolved = resolveVars(fallback, vars, used, chain);
      list.replace(item, list.createItem({ type: 'Raw', value: ` ${resolved} ` }));
    },
  });
  // The substitutions were padded so they never glue to a neighbour; the padding goes again here.
  return csstree.generate(ast).replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').trim();
}
