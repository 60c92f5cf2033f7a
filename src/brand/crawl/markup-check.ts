import { Tokenizer } from 'htmlparser2';
import { MAX_ATTRIBUTES_PER_ELEMENT, MAX_NESTING_DEPTH } from './crawl-limits.ts';

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

// Elements whose start tag closes an open <p> (HTML's "close a p element" rule, most common cases).
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);

// Implied end tags: a start tag of the key closes open elements of these kinds first.
const IMPLIED_CLOSE: Record<string, Set<string>> = {
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  option: new Set(['option']),
  optgroup: new Set(['option', 'optgroup']),
  tr: new Set(['tr', 'td', 'th']),
  td: new Set(['td', 'th']),
  th: new Set(['td', 'th']),
  thead: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']),
  tbody: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']),
  tfoot: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']),
};

/**
 * Refuses markup that would make the HTML parser (parse5, under cheerio) take time quadratic in its size:
 * elements nested deeper than MAX_NESTING_DEPTH, or one element with more than MAX_ATTRIBUTES_PER_ELEMENT
 * attributes. One linear pass of htmlparser2's tokenizer with a small model of implied end tags, so ordinary
 * sloppy markup (unclosed <p>, <li>, <td>) is not mistaken for depth. Returns the problem, or null.
 */
export function markupProblem(html: string): string | null {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let tag = '';
  let attributes = 0;
  let problem: string | null = null;

  const push = (name: string): void => {
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
  };
  const pop = (): string | undefined => {
    const name = stack.pop();
    if (name !== undefined) open.set(name, (open.get(name) ?? 1) - 1);
    return name;
  };

  const tokenizer: Tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        attributes = 0;
      },
      onattribname() {
        attributes++;
        if (attributes > MAX_ATTRIBUTES_PER_ELEMENT && problem === null) {
          problem = `an element has more than ${MAX_ATTRIBUTES_PER_ELEMENT} attributes`;
          tokenizer.pause();
        }
      },
      onopentagend() {
        if (VOID_ELEMENTS.has(tag)) return;
        const closes = IMPLIED_CLOSE[tag];
        while (stack.length > 0) {
          const top = stack[stack.length - 1] as string;
          if (closes?.has(top) || (top === 'p' && CLOSES_P.has(tag))) pop();
          else break;
        }
        push(tag);
        if (stack.length > MAX_NESTING_DEPTH && problem === null) {
          problem = `the markup nests elements more than ${MAX_NESTING_DEPTH} deep`;
          tokenizer.pause();
        }
      },
      onselfclosingtag() {},
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if ((open.get(name) ?? 0) === 0) return;
        while (pop() !== name);
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  if (problem === null) tokenizer.end();
  return problem;
}
