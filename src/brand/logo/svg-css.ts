// CSS inside an SVG (<style>, style="", presentation attributes holding url()) can point outside the document
// through url(), image() or @import. css-tree reads it; anything that references out, or that it could not parse
// (a Raw node might hide a reference), is removed.
import { find, generate, parse, walk, type CssNode, type List, type ListItem } from 'css-tree';
import { isSafeReference } from './svg-references.ts';

const REFERENCE_FUNCTIONS = new Set(['url', 'src', 'image', 'image-set', '-webkit-image-set', 'element']);
/** At-rules that cannot load anything themselves; every other one (@import first) is dropped. */
const KEPT_AT_RULES = new Set(['media', 'supports', 'keyframes', 'font-face']);

function refersOut(node: CssNode): boolean {
  return (
    find(node, (n) => {
      if (n.type === 'Raw') return true;
      if (n.type === 'Url') return !isSafeReference(n.value);
      return n.type === 'Function' && REFERENCE_FUNCTIONS.has(n.name.toLowerCase());
    }) !== null
  );
}

/** The parsed CSS, or null when css-tree gives up on it (it throws where it cannot recover, e.g. in a bare value). */
function parseCss(css: string, context: string): CssNode | null {
  try {
    return parse(css, { context, parseCustomProperty: true });
  } catch {
    return null;
  }
}

/** A presentation attribute's value, or null when it refers outside the document or cannot be read. */
export function scrubCssValue(value: string): string | null {
  const ast = parseCss(value, 'value');
  return ast === null || refersOut(ast) ? null : value;
}

/** A stylesheet (context 'stylesheet') or a style="" attribute (context 'declarationList') without outside references. */
export function scrubCss(css: string, context: 'stylesheet' | 'declarationList'): string {
  const ast = parseCss(css, context);
  if (ast === null) return '';
  walk(ast, {
    enter(node: CssNode, item: ListItem<CssNode>, list: List<CssNode> | null) {
      const drop =
        (node.type === 'Atrule' && !KEPT_AT_RULES.has(node.name.toLowerCase())) ||
        (node.type === 'Declaration' && refersOut(node)) ||
        node.type === 'Raw';
      if (drop && list) list.remove(item);
    },
  });
  return generate(ast);
}
