import { Document, Element, Text, type ParentNode } from 'domhandler';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { PageText, type PageSource } from './page-text.js';
import { isHtmlWhitespace, rawTextEndTag } from './markup-scan.js';

/**
 * The tree htmlparser2 builds from a page, built faster: the marketplace's pages are 1–3 MB, most
 * of it scripts, style sheets, framework comments and tracking attributes (kilobytes of them per
 * card), which htmlparser2 reads a character at a time. Here tags, attribute values, comments and
 * scripts are found with native string searches, and only the attributes a parser asks for are
 * kept.
 *
 * The result is htmlparser2's tree (`parseDocument(html, { decodeEntities: true })`) without its
 * comments, declarations and processing instructions and without the attributes not kept: the
 * same elements, nesting and text. Tags, attribute values, comments and raw text end where
 * htmlparser2's tokenizer ends them, and the tree is built by its parser's rules (implied end tags,
 * void elements, self-closing tags inside SVG and MathML, stray `</p>` and `</br>`); references are
 * decoded the same way (the rare ones by htmlparser2's own tokenizer).
 *
 * A page read from its bytes (`PageText`) is scanned as bytes; names, text and attribute values
 * are decoded from UTF-8 as they are taken, each raw run before the references in it are decoded.
 *
 * With a `Selection`, only part of the tree is built: the skeleton elements it names, and whole
 * subtrees it names; every other element is read (for the structure) but not built, and what is
 * built inside it hangs from its nearest built ancestor, in document order. A parser whose every
 * question is about elements of the selection gets from this tree the answers it gets from the
 * whole one.
 */

export interface Selection {
  /**
   * Tested on a start tag's attributes as written: a tag that does not match is neither built nor
   * looked at further (unless it is inside a built subtree). A cheap filter, before `classify`.
   */
  candidates: RegExp;
  /** Names always built with their subtree. */
  subtreeNames?: ReadonlySet<string>;
  /** For a candidate: a skeleton node (built, its content selected in turn), a whole subtree, or neither. */
  classify(element: Element): 'skeleton' | 'subtree' | 'none';
}

/** What the tree holds of an open element: the element when built, and whether all inside it is built. */
interface OpenElement {
  name: string;
  element: Element | null;
  whole: boolean;
}

/** htmlparser2's parser (10.1.0, pinned in package.json): a start tag of the key closes an open element of the set. */
const P = new Set(['p']);
const FORM_TAGS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (name) => [name, P] as [string, ReadonlySet<string>],
  ),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name) => [name, FORM_TAGS] as [string, ReadonlySet<string>]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
]);
const VOID_ELEMENTS = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const FOREIGN_CONTEXT = new Set(['math', 'svg']);
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** Elements whose content is text up to their end tag, and whether references in it are decoded. */
const RAW_TEXT: ReadonlyMap<string, boolean> = new Map([
  ['script', false],
  ['style', false],
  ['title', true],
  ['textarea', false],
  ['xmp', false],
]);

/** What htmlparser2's parser does with a tag of one name (a tag costs one lookup, not one a rule). */
interface TagRules {
  /** Open elements of these names its start tag closes. */
  closes: ReadonlySet<string> | undefined;
  isVoid: boolean;
  /** Foreign content (SVG, MathML) starts: true; an HTML integration point: false. */
  foreign: boolean | undefined;
  /** Text up to its end tag, and whether references in it are decoded. */
  rawText: boolean | undefined;
}
const NO_RULES: TagRules = { closes: undefined, isVoid: false, foreign: undefined, rawText: undefined };
const TAG_RULES: ReadonlyMap<string, TagRules> = new Map(
  [...new Set([...OPEN_IMPLIES_CLOSE.keys(), ...VOID_ELEMENTS, ...FOREIGN_CONTEXT, ...HTML_INTEGRATION, ...RAW_TEXT.keys()])].map((name) => [
    name,
    {
      closes: OPEN_IMPLIES_CLOSE.get(name),
      isVoid: VOID_ELEMENTS.has(name),
      foreign: FOREIGN_CONTEXT.has(name) ? true : HTML_INTEGRATION.has(name) ? false : undefined,
      rawText: RAW_TEXT.get(name),
    },
  ]),
);

function rulesOf(name: string): TagRules {
  return TAG_RULES.get(name) ?? NO_RULES;
}

/**
 * The HTML standard's references that may be written without ";" (decoded even then in text, and
 * in attribute values unless a letter, digit or "=" follows), by first letter. Any other name is a
 * reference only with its ";".
 */
const LEGACY_NAMES: ReadonlyMap<string, readonly string[]> = (() => {
  const names = [
    'AElig', 'AMP', 'Aacute', 'Acirc', 'Agrave', 'Aring', 'Atilde', 'Auml', 'COPY', 'Ccedil', 'ETH', 'Eacute', 'Ecirc', 'Egrave', 'Euml', 'GT',
    'Iacute', 'Icirc', 'Igrave', 'Iuml', 'LT', 'Ntilde', 'Oacute', 'Ocirc', 'Ograve', 'Oslash', 'Otilde', 'Ouml', 'QUOT', 'REG', 'THORN', 'Uacute',
    'Ucirc', 'Ugrave', 'Uuml', 'Yacute', 'aacute', 'acirc', 'acute', 'aelig', 'agrave', 'amp', 'aring', 'atilde', 'auml', 'brvbar', 'ccedil', 'cedil',
    'cent', 'copy', 'curren', 'deg', 'divide', 'eacute', 'ecirc', 'egrave', 'eth', 'euml', 'frac12', 'frac14', 'frac34', 'gt', 'iacute', 'icirc',
    'iexcl', 'igrave', 'iquest', 'iuml', 'laquo', 'lt', 'macr', 'micro', 'middot', 'nbsp', 'not', 'ntilde', 'oacute', 'ocirc', 'ograve', 'ordf',
    'ordm', 'oslash', 'otilde', 'ouml', 'para', 'plusmn', 'pound', 'quot', 'raquo', 'reg', 'sect', 'shy', 'sup1', 'sup2', 'sup3', 'szlig',
    'thorn', 'times', 'uacute', 'ucirc', 'ugrave', 'uml', 'uuml', 'yacute', 'yen', 'yuml',
  ];
  const byFirst = new Map<string, string[]>();
  for (const name of names) byFirst.set(name[0]!, [...(byFirst.get(name[0]!) ?? []), name]);
  return byFirst;
})();
/** The few references read here; every other goes to htmlparser2's decoder and its full table. */
const SIMPLE_NAMED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);
const NUMERIC_REFERENCE = /#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));/y;
const UNQUOTED_VALUE_END = /[ \t\n\f\r>]/g;
/**
 * The rest of a start tag after its name, as htmlparser2's tokenizer reads it (a quote matters only
 * right after "="); the group is the whitespace and slashes before ">", whose last "/" closes the
 * tag itself.
 */
const START_TAG_REST = /(?:[ \t\n\f\r/]+|[^ \t\n\f\r/>][^ \t\n\f\r/>=]*(?:[ \t\n\f\r]*=[ \t\n\f\r]*(?:"[^"]*"|'[^']*'|[^ \t\n\f\r>]*))?)*?([ \t\n\f\r/]*)>/y;
/** The same, only to find the ">" (most tags need no more). */
const START_TAG_END = /(?:[ \t\n\f\r/]+|[^ \t\n\f\r/>][^ \t\n\f\r/>=]*(?:[ \t\n\f\r]*=[ \t\n\f\r]*(?:"[^"]*"|'[^']*'|[^ \t\n\f\r>]*))?)*>/y;

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiLetter(code) || (code >= 48 && code <= 57);
}


/** A code point a numeric reference stands for as written (the decoder remaps or refuses others). */
function isPlainCodePoint(code: number): boolean {
  return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code < 0xd800) || (code >= 0xe000 && code <= 0x10ffff && (code & 0xfffe) !== 0xfffe && (code < 0xfdd0 || code > 0xfdef));
}

type Mode = 'text' | 'value';

/** A name's length and first and last characters (any case), packed: most dropped names differ in it from every kept one. */
function signatureOf(text: string, start: number, end: number): number {
  return (end - start) * 65536 + (text.charCodeAt(start) | 0x20) * 256 + (text.charCodeAt(end - 1) | 0x20);
}

/**
 * The attributes a parser reads (lower case ASCII, as every attribute of HTML's is: a name's length
 * and case are then the same in a page's bytes as in its text); every other is dropped. Made once
 * per parser.
 */
export class KeptAttributes {
  /** The names by signature. */
  private readonly bySignature: ReadonlyMap<number, readonly string[]>;

  constructor(readonly names: ReadonlySet<string>) {
    const unfit = [...names].find((name) => !/^[\x21-\x7e]+$/.test(name) || name !== name.toLowerCase());
    if (unfit !== undefined) throw new Error(`A kept attribute's name is lower case ASCII: ${JSON.stringify(unfit)}`);
    const bySignature = new Map<number, string[]>();
    for (const name of names) bySignature.set(signatureOf(name, 0, name.length), [...(bySignature.get(signatureOf(name, 0, name.length)) ?? []), name]);
    this.bySignature = bySignature;
  }

  /** Whether the name at `html[start, end)` may be kept: false is sure, true is checked against `names`. */
  mayKeep(html: string, start: number, end: number): boolean {
    return this.bySignature.has(signatureOf(html, start, end));
  }

  /** The kept name written at `html[start, end)` as it is (lower case), if one is: most are, and need no copy. */
  writtenAt(html: string, start: number, end: number): string | undefined {
    const names = this.bySignature.get(signatureOf(html, start, end));
    if (names) for (const name of names) if (html.startsWith(name, start)) return name;
    return undefined;
  }
}

/**
 * Decodes with htmlparser2's own tokenizer: text as it is, a value as a double-quoted attribute.
 * `raw` is taken from `page.html`: its runs between references are decoded as the page's text.
 */
function decodeWithHtmlparser2(page: PageText, raw: string, mode: Mode): string {
  const input = mode === 'text' ? raw : `<a b="${raw.replaceAll('"', '&quot;')}">`;
  let out = '';
  const ignore = () => undefined;
  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => (out += page.decode(input.slice(start, end))),
    ontextentity: (codePoint) => (out += String.fromCodePoint(codePoint)),
    onattribdata: (start, end) => (out += page.decode(input.slice(start, end))),
    onattribentity: (codePoint) => (out += String.fromCodePoint(codePoint)),
    onattribend: ignore,
    onattribname: ignore,
    oncdata: ignore,
    onclosetag: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onend: ignore,
    onopentagend: ignore,
    onopentagname: ignore,
    onprocessinginstruction: ignore,
    onselfclosingtag: ignore,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(input);
  tokenizer.end();
  return out;
}

class SkimmedTreeBuilder {
  readonly document = new Document([]);
  private readonly html: string;
  /** The open elements, innermost last (built or not). */
  private readonly open: OpenElement[] = [];
  /** htmlparser2's foreign-content flags: inside SVG or MathML, `<x/>` closes itself. */
  private readonly foreign: boolean[] = [false];
  private lastText: Text | null = null;
  private position: number;
  private stopped = false;
  /** With `firstElementOnly`: where the element ended (after its end tag, or where a tag implied its end). */
  endPosition: number;
  /** Where the token being read starts and ends, to tell where the first element ended. */
  private tokenStart = 0;
  private tokenEnd = 0;
  private impliedByStartTag = false;
  private nextAmpersand = -1;

  constructor(
    private readonly page: PageText,
    private readonly keep: KeptAttributes,
    start: number,
    private readonly firstElementOnly: boolean,
    private readonly selection: Selection | undefined,
  ) {
    this.html = page.html;
    this.position = start;
    this.endPosition = page.html.length;
  }

  build(): Document {
    const { html } = this;
    while (!this.stopped && this.position < html.length) {
      const position = this.position;
      const open = html.indexOf('<', position);
      if (open === -1) {
        this.text(position, html.length, true);
        break;
      }
      const next = html.charCodeAt(open + 1);
      this.tokenStart = open;
      if (isAsciiLetter(next)) {
        if (open > position) this.text(position, open, true);
        this.position = this.startTag(open);
      } else if (next === 47 /* / */) {
        if (open > position) this.text(position, open, true);
        this.position = this.endTag(open);
      } else if (next === 33 /* ! */ || next === 63 /* ? */) {
        if (open > position) this.text(position, open, true);
        this.position = this.commentLike(open);
      } else {
        // A "<" that starts no tag is text.
        this.text(position, open + 1, true);
        this.position = open + 1;
      }
    }
    return this.document;
  }

  // --- the tree, by htmlparser2's parser's rules ---

  /** Whether what is read now is built: everything without a selection, else inside a built subtree. */
  private get buildingAll(): boolean {
    return !this.selection || (this.open.at(-1)?.whole ?? false);
  }

  private attach(node: Element | Text): void {
    let parent: Document | Element = this.document;
    for (let index = this.open.length - 1; index >= 0; index -= 1) {
      const element = this.open[index]!.element;
      if (element) {
        parent = element;
        break;
      }
    }
    const previous = parent.children.at(-1);
    parent.children.push(node);
    if (previous) {
      node.prev = previous;
      previous.next = node;
    }
    node.parent = parent;
  }

  private addText(data: string): void {
    if (this.lastText) {
      this.lastText.data += data;
      return;
    }
    const node = new Text(data);
    this.attach(node);
    this.lastText = node;
  }

  private closeInnermost(): void {
    const closed = this.open.pop();
    if (closed?.element) this.lastText = null;
    if (this.firstElementOnly && this.open.length === 0) this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.endPosition = this.impliedByStartTag ? this.tokenStart : this.tokenEnd;
  }

  /**
   * A start tag: implied end tags first, then the element (built when `element` is given; `whole`
   * when all inside it is built too). Void elements are not left open.
   */
  private openElement(name: string, rules: TagRules, element: Element | null, whole: boolean): void {
    const { closes } = rules;
    if (closes) {
      this.impliedByStartTag = true;
      while (this.open.length > 0 && closes.has(this.open.at(-1)!.name)) this.closeInnermost();
      this.impliedByStartTag = false;
      if (this.stopped) return;
    }
    if (element) {
      this.lastText = null;
      this.attach(element);
    }
    if (rules.isVoid) {
      if (this.firstElementOnly && this.open.length === 0) this.stop();
      return;
    }
    this.open.push({ name, element, whole });
    if (rules.foreign !== undefined) this.foreign.push(rules.foreign);
  }

  private closeElement(name: string): void {
    const rules = rulesOf(name);
    if (rules.foreign !== undefined) this.foreign.pop();
    if (rules.isVoid) {
      // "</br>" is read as "<br>".
      if (name === 'br') this.openElement('br', rules, this.buildingAll ? new Element('br', {}) : null, false);
      return;
    }
    for (let index = this.open.length - 1; index >= 0; index -= 1) {
      if (this.open[index]!.name !== name) continue;
      while (this.open.length > index) this.closeInnermost();
      return;
    }
    if (name === 'p') {
      // A "</p>" with no open p is an empty p.
      this.openElement('p', rulesOf('p'), this.buildingAll ? new Element('p', {}) : null, true);
      if (this.open.at(-1)?.name === 'p') this.closeInnermost();
    }
  }

  // --- text and references ---

  private ampersandFrom(from: number): number {
    if (this.nextAmpersand < from && this.nextAmpersand !== Infinity) {
      const found = this.html.indexOf('&', from);
      this.nextAmpersand = found === -1 ? Infinity : found;
    }
    return this.nextAmpersand;
  }

  private text(start: number, end: number, decoded: boolean): void {
    if (this.stopped || start >= end || !this.buildingAll) return;
    this.addText(decoded ? this.decode(start, end, 'text') : this.page.text(start, end));
  }

  /** `html[start, end)` with its references decoded as htmlparser2 decodes text or attribute values. */
  private decode(start: number, end: number, mode: Mode): string {
    const { html, page } = this;
    let ampersand = this.ampersandFrom(start);
    if (ampersand >= end) return page.text(start, end);
    let out = '';
    let plainFrom = start;
    for (; ampersand < end; ampersand = this.ampersandFrom(ampersand + 1)) {
      const reference = this.reference(ampersand + 1);
      if (reference === null) continue;
      if (reference === undefined) return out + decodeWithHtmlparser2(page, html.slice(plainFrom, end), mode);
      // The raw run is decoded on its own (it ends at the "&"), the reference's code point added as it is.
      out += page.text(plainFrom, ampersand) + reference.text;
      plainFrom = ampersand + 1 + reference.length;
    }
    return out + page.text(plainFrom, end);
  }

  /**
   * The reference after an "&": `&#123;`, `&#x7b;`, `&amp;` and the like are read here; null when
   * none starts there (as in most query strings: `&itmmeta=…`); undefined for anything else, which
   * htmlparser2's decoder reads.
   */
  private reference(from: number): { text: string; length: number } | null | undefined {
    const { html } = this;
    const first = html.charCodeAt(from);
    if (first === 35 /* # */) {
      NUMERIC_REFERENCE.lastIndex = from;
      const numeric = NUMERIC_REFERENCE.exec(html);
      if (!numeric) return undefined;
      const codePoint = numeric[1] === undefined ? parseInt(numeric[2]!, 16) : Number(numeric[1]);
      return isPlainCodePoint(codePoint) ? { text: String.fromCodePoint(codePoint), length: numeric[0].length } : undefined;
    }
    if (!isAsciiLetter(first)) return null;
    let nameEnd = from + 1;
    while (isAsciiAlphanumeric(html.charCodeAt(nameEnd))) nameEnd += 1;
    if (html.charCodeAt(nameEnd) === 59 /* ; */) {
      const text = SIMPLE_NAMED.get(html.slice(from, nameEnd));
      return text === undefined ? undefined : { text, length: nameEnd + 1 - from };
    }
    // Without ";" only a legacy name can be a reference (and in a value not always): the decoder decides.
    const candidates = LEGACY_NAMES.get(html.charAt(from));
    if (!candidates) return null;
    const name = html.slice(from, nameEnd);
    return candidates.some((legacy) => name.startsWith(legacy)) ? undefined : null;
  }

  // --- tokens, ended where htmlparser2's tokenizer ends them ---

  /** A start tag at `open`; returns where reading goes on. */
  private startTag(open: number): number {
    const { html } = this;
    const nameEnd = this.nameEnd(open + 2);
    if (nameEnd >= html.length) return html.length;
    const name = this.name(open + 1, nameEnd);
    const rules = rulesOf(name);
    let element: Element | null = null;
    let whole = true;
    let end: number;
    let selfClosing: boolean;
    if (!this.buildingAll) {
      // Outside what is built: find the tag's end natively, and read its attributes only if it may be selected.
      START_TAG_END.lastIndex = nameEnd;
      if (!START_TAG_END.test(html)) return html.length;
      end = START_TAG_END.lastIndex - 1;
      // Whether a "/" closes it matters only inside SVG and MathML, and for a script or style.
      selfClosing = html.charCodeAt(end - 1) === 47 || isHtmlWhitespace(html.charCodeAt(end - 1)) ? this.closesItself(nameEnd) : false;
      const selection = this.selection!;
      if (selection.subtreeNames?.has(name) || selection.candidates.test(html.slice(nameEnd, end))) {
        const candidate = new Element(name, this.attributes(nameEnd).attribs);
        const kind = selection.subtreeNames?.has(name) ? 'subtree' : selection.classify(candidate);
        if (kind !== 'none') {
          element = candidate;
          whole = kind === 'subtree';
        } else {
          whole = false;
        }
      } else {
        whole = false;
      }
    } else {
      const read = this.attributes(nameEnd);
      if (read.end >= html.length) return html.length;
      end = read.end;
      selfClosing = read.selfClosing;
      element = new Element(name, read.attribs);
    }
    if (this.stopped) return html.length;
    this.tokenEnd = end + 1;
    this.openElement(name, rules, element, whole);
    if (selfClosing && this.foreign.at(-1)) {
      const innermost = this.open.at(-1);
      if (innermost && innermost.name === name && !rules.isVoid) this.closeInnermost();
      return end + 1;
    }
    // "<script/>" outside SVG leaves the script open, but its content is read as markup.
    if (selfClosing || rules.rawText === undefined) return end + 1;
    const closing = this.rawTextEnd(name, end + 1);
    this.text(end + 1, closing, rules.rawText);
    return closing;
  }

  /** The start tag at `open` alone: its name, kept attributes and where it ends (after its ">"). */
  readStartTag(open: number): { name: string; attribs: Record<string, string>; end: number } | null {
    const nameEnd = this.nameEnd(open + 1);
    const read = this.attributes(nameEnd);
    return read.end >= this.html.length ? null : { name: this.name(open + 1, nameEnd), attribs: read.attribs, end: read.end + 1 };
  }

  /** Where a tag's name that goes on at `from` ends: at whitespace, "/", ">" or the page's end. */
  private nameEnd(from: number): number {
    const { html } = this;
    let end = from;
    for (let code = html.charCodeAt(end); !Number.isNaN(code) && !isHtmlWhitespace(code) && code !== 47 && code !== 62; code = html.charCodeAt(end)) end += 1;
    return end;
  }

  /** The tag or attribute name at `html[start, end)`, lower case (decoded first: a byte lower-cased is not its character lower-cased). */
  private name(start: number, end: number): string {
    return this.page.text(start, end).toLowerCase();
  }

  /** Whether the start tag whose name ends at `nameEnd` ends in a "/" that closes it (not one ending a bare value). */
  private closesItself(nameEnd: number): boolean {
    START_TAG_REST.lastIndex = nameEnd;
    return START_TAG_REST.exec(this.html)?.[1]?.trimEnd().endsWith('/') ?? false;
  }

  /** A start tag's attributes from its name's end: the kept ones, where ">" is, and whether "/" closes it. */
  private attributes(from: number): { attribs: Record<string, string>; end: number; selfClosing: boolean } {
    const { html } = this;
    const attribs: Record<string, string> = {};
    let position = from;
    let slash = false;
    for (;;) {
      const code = html.charCodeAt(position);
      if (Number.isNaN(code)) return { attribs, end: html.length, selfClosing: false };
      if (isHtmlWhitespace(code)) {
        position += 1;
      } else if (code === 47 /* / */) {
        // "/" then ">" (whitespace between allowed) closes the tag itself; otherwise it reads as a space.
        slash = true;
        position += 1;
      } else if (code === 62 /* > */) {
        return { attribs, end: position, selfClosing: slash };
      } else {
        slash = false;
        position = this.attribute(position, attribs);
      }
    }
  }

  /** One attribute at `start`, into `attribs` when kept (the first of a name wins); returns the position after it. */
  private attribute(start: number, attribs: Record<string, string>): number {
    const { html } = this;
    // A name runs to "=", whitespace, "/" or ">"; its first character may be anything else, "=" included.
    // (Names are short: a loop costs less than a regular expression's call. Quoted values, often long, are skipped natively.)
    let nameEnd = start + 1;
    for (let code = html.charCodeAt(nameEnd); !Number.isNaN(code) && !isHtmlWhitespace(code) && code !== 47 && code !== 62 && code !== 61; code = html.charCodeAt(nameEnd)) nameEnd += 1;
    let position = nameEnd;
    while (isHtmlWhitespace(html.charCodeAt(position))) position += 1;
    // Most names are dropped at a glance, and most kept ones are written in lower case.
    const name = this.keep.mayKeep(html, start, nameEnd) ? (this.keep.writtenAt(html, start, nameEnd) ?? this.name(start, nameEnd)) : '';
    const kept = name !== '' && this.keep.names.has(name) && !Object.hasOwn(attribs, name);
    if (html.charCodeAt(position) !== 61 /* = */) {
      if (kept) attribs[name] = '';
      return position;
    }
    position += 1;
    while (isHtmlWhitespace(html.charCodeAt(position))) position += 1;
    const quote = html.charCodeAt(position);
    let valueStart: number;
    let valueEnd: number;
    let after: number;
    if (quote === 34 || quote === 39) {
      valueStart = position + 1;
      valueEnd = html.indexOf(quote === 34 ? '"' : "'", valueStart);
      if (valueEnd === -1) return html.length;
      after = valueEnd + 1;
    } else {
      valueStart = position;
      UNQUOTED_VALUE_END.lastIndex = position;
      valueEnd = UNQUOTED_VALUE_END.test(html) ? UNQUOTED_VALUE_END.lastIndex - 1 : html.length;
      after = valueEnd;
    }
    if (kept) attribs[name] = this.decode(valueStart, valueEnd, 'value');
    return after;
  }

  /** Where the raw text of `name` ends: at `</name` followed by whitespace or `>`, in any case. */
  private rawTextEnd(name: string, from: number): number {
    const end = rawTextEndTag(this.html, name, from);
    return end === -1 ? this.html.length : end;
  }

  /** An end tag (`</name …>`; its name runs to whitespace or ">"), or what htmlparser2 reads instead: `</>` and `</3…>` are no tags. */
  private endTag(open: number): number {
    const { html } = this;
    let position = open + 2;
    while (isHtmlWhitespace(html.charCodeAt(position))) position += 1;
    const close = html.indexOf('>', position);
    if (close === -1) return html.length;
    if (isAsciiLetter(html.charCodeAt(position))) {
      let nameEnd = position + 1;
      while (nameEnd < close && !isHtmlWhitespace(html.charCodeAt(nameEnd))) nameEnd += 1;
      this.tokenEnd = close + 1;
      if (!this.stopped) this.closeElement(this.name(position, nameEnd));
    }
    return close + 1;
  }

  /** Comments, CDATA, declarations and processing instructions: skipped to their end. */
  private commentLike(open: number): number {
    const { html } = this;
    let end: number;
    if (html.startsWith('<!--', open)) {
      // "<!-->" is a whole comment: the search for "-->" starts at the opening dashes.
      end = html.indexOf('-->', open + 2);
      return end === -1 ? html.length : end + 3;
    }
    if (html.startsWith('<![CDATA[', open)) {
      end = html.indexOf(']]>', open + 9);
      return end === -1 ? html.length : end + 3;
    }
    end = html.indexOf('>', open + 2);
    return end === -1 ? html.length : end + 1;
  }
}

export interface SkimOptions {
  /** Where to start: a tag's `<`. */
  start?: number;
  /** Read the element that starts at `start` alone, and stop at its end. */
  firstElementOnly?: boolean;
  /** Build only what it names. */
  selection?: Selection;
}

/** The skimmed tree of a page from `start` to its end, or of the element at `start` alone. */
export function parseSkimmed(page: PageSource, keepAttributes: KeptAttributes, { start = 0, firstElementOnly = false, selection }: SkimOptions = {}): Document {
  return new SkimmedTreeBuilder(PageText.of(page), keepAttributes, start, firstElementOnly, selection).build();
}

/** The element starting at `start` (a tag's `<`), skimmed, and where it ends in the page. */
export function parseElementAt(page: PageSource, keepAttributes: KeptAttributes, start: number, selection?: Selection): { element: Element | undefined; end: number } {
  const builder = new SkimmedTreeBuilder(PageText.of(page), keepAttributes, start, true, selection);
  const element = builder.build().children.find((node): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style');
  return { element, end: builder.endPosition };
}

/**
 * The elements starting at `starts` (in any order, repeats allowed), each read whole, leaving out
 * those inside one read before; null when one cannot be read or ends past `limit`.
 */
export function parseElementsAt(page: PageText, keepAttributes: KeptAttributes, starts: number[], limit = Number.POSITIVE_INFINITY): Element[] | null {
  const elements: Element[] = [];
  let covered = -1;
  for (const start of [...new Set(starts)].sort((a, b) => a - b)) {
    if (start < covered) continue;
    const { element, end } = parseElementAt(page, keepAttributes, start);
    if (!element || end > limit) return null;
    elements.push(element);
    covered = end;
  }
  return elements;
}

/** `parent` made the parent of its children (and each child the sibling of its neighbours). */
export function adoptChildren<P extends ParentNode>(parent: P): P {
  const { children } = parent;
  children.forEach((child, index) => {
    child.parent = parent;
    child.prev = children[index - 1] ?? null;
    child.next = children[index + 1] ?? null;
  });
  return parent;
}

/** The start tag at `start` alone (its element's content is not read). */
export function readStartTagAt(page: PageSource, keepAttributes: KeptAttributes, start: number): { name: string; attribs: Record<string, string>; end: number } | null {
  return new SkimmedTreeBuilder(PageText.of(page), keepAttributes, start, true, undefined).readStartTag(start);
}
