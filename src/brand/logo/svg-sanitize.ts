// An SVG is a document that can run script, declare entities and point at other files. Before librsvg sees one it
// is parsed (htmlparser2 in XML mode, the parser cheerio uses for XML) and rewritten so that rasterizing it can
// neither execute anything nor reach the network or the disk:
// - a DOCTYPE or any other <!…> declaration refuses the whole file: entities are how XXE reads local files and
//   how "billion laughs" expands without bound, and no real logo needs them;
// - <script>, <foreignObject>, embedded documents and animation elements (which could set an href later) go;
// - on* event-handler attributes and xml:base go;
// - href/src keep only #fragments and inline raster data: URLs (svg-references.ts); url() and @import in CSS are
//   scrubbed the same way (svg-css.ts);
// - processing instructions (<?xml-stylesheet …?>) and comments go.
// Element count and nesting depth are capped so a hostile file fails fast instead of exhausting the renderer.
// The root must say how big it is (a viewBox, or an absolute width and height): librsvg otherwise falls back to
// the drawing's bounding box in user units and ignores the render density, so the logo could not be scaled.
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import { logoErrors } from './logo-errors.ts';
import { scrubCss, scrubCssValue } from './svg-css.ts';
import { isSafeReference } from './svg-references.ts';

type SvgDocument = ReturnType<typeof parseDocument>;
type SvgNode = SvgDocument['children'][number];
type SvgElement = Extract<SvgNode, { attribs: Record<string, string> }>;

export const MAX_SVG_ELEMENTS = 50_000;
export const MAX_SVG_DEPTH = 200;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

const DROPPED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'handler',
  'listener',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'set',
  'discard',
]);

const REFERENCE_ATTRIBUTES = new Set(['href', 'src']);

const ABSOLUTE_LENGTH = /^\s*\d*\.?\d+(?:e[+-]?\d+)?\s*(?:px|pt|pc|mm|cm|in)?\s*$/i;

/** An HTML serializer may have lower-cased the root's camelCase attributes, which librsvg then ignores. */
const CAMEL_CASE_ROOT_ATTRIBUTES = ['viewBox', 'preserveAspectRatio'];

function restoreAttributeCase(root: SvgElement): void {
  for (const name of CAMEL_CASE_ROOT_ATTRIBUTES) {
    const lower = name.toLowerCase();
    const value = root.attribs[lower];
    if (value === undefined || root.attribs[name] !== undefined) continue;
    root.attribs[name] = value;
    delete root.attribs[lower];
  }
}

function hasSize(root: SvgElement): boolean {
  const { viewBox, width, height } = root.attribs;
  if (viewBox !== undefined && viewBox.trim() !== '') return true;
  return (
    width !== undefined && height !== undefined && ABSOLUTE_LENGTH.test(width) && ABSOLUTE_LENGTH.test(height)
  );
}

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(':') + 1).toLowerCase();

function scrubAttributes(element: SvgElement): void {
  for (const [name, value] of Object.entries(element.attribs)) {
    const local = localName(name);
    let kept: string | null = value;
    if (name === 'xmlns' || name.startsWith('xmlns:')) kept = value;
    else if (local.startsWith('on') || name === 'xml:base') kept = null;
    else if (REFERENCE_ATTRIBUTES.has(local)) kept = isSafeReference(value) ? value : null;
    else if (local === 'style') kept = scrubCss(value, 'declarationList');
    // Presentation attributes (fill, filter, mask, clip-path, marker-*) may hold url(); a CSS escape could
    // spell one, so values with either are read as CSS.
    else if (value.toLowerCase().includes('url(') || value.includes('\\')) kept = scrubCssValue(value);
    if (kept === null) delete element.attribs[name];
    else element.attribs[name] = kept;
  }
}

function scrubStyleElement(element: SvgElement): void {
  const css = scrubCss(DomUtils.textContent(element), 'stylesheet');
  let written = false;
  for (const node of DomUtils.filter(DomUtils.isText, element.children)) {
    if (!DomUtils.isText(node)) continue;
    node.data = written ? '' : css;
    written = true;
  }
}

function refuseDeclaration(): never {
  throw logoErrors.unreadable(
    'the SVG contains a <!DOCTYPE> or <!ENTITY> declaration, which is refused because entities can read files or expand without bound; remove the declaration',
  );
}

/** Returns the sanitized SVG document (its root element only), or throws LOGO_UNREADABLE. */
export function sanitizeSvg(text: string): string {
  const doc = parseDocument(text, { xmlMode: true });
  const removed: SvgNode[] = [];
  const stack: { node: SvgNode; depth: number }[] = doc.children.map((node) => ({ node, depth: 1 }));
  let elements = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node.type === ElementType.Directive) {
      if (node.name.startsWith('!')) refuseDeclaration();
      removed.push(node);
      continue;
    }
    if (node.type === ElementType.Comment) {
      removed.push(node);
      continue;
    }
    if (!DomUtils.isTag(node)) continue;
    elements += 1;
    if (elements > MAX_SVG_ELEMENTS)
      throw logoErrors.unreadable(`the SVG has more than ${MAX_SVG_ELEMENTS} elements; simplify it`);
    if (depth > MAX_SVG_DEPTH)
      throw logoErrors.unreadable(`the SVG nests elements deeper than ${MAX_SVG_DEPTH} levels; flatten it`);
    if (DROPPED_ELEMENTS.has(localName(node.name))) {
      removed.push(node);
      continue;
    }
    scrubAttributes(node);
    if (localName(node.name) === 'style') scrubStyleElement(node);
    for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
  }
  for (const node of removed) DomUtils.removeElement(node);

  const root = doc.children.find((node) => DomUtils.isTag(node));
  if (!root || !DomUtils.isTag(root) || localName(root.name) !== 'svg')
    throw logoErrors.unreadable('the document is not an SVG (its root element is not <svg>)');
  restoreAttributeCase(root);
  if (!hasSize(root))
    throw logoErrors.unreadable(
      'the SVG does not say how big it is; give its <svg> element a viewBox, or an absolute width and height',
    );
  // SVG copied out of an HTML page usually omits its namespaces, which librsvg needs.
  if (root.name === 'svg' && root.attribs.xmlns === undefined) root.attribs.xmlns = SVG_NAMESPACE;
  if (root.attribs['xmlns:xlink'] === undefined) root.attribs['xmlns:xlink'] = XLINK_NAMESPACE;
  return DomUtils.getOuterHTML(root, { xmlMode: true });
}
