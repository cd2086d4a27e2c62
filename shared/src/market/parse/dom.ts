import type { AnyNode, Document, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { cleanText } from './text.js';

/**
 * Plain DOM helpers over htmlparser2's tree. The result pages are read in one walk, looking at each
 * element's classes once; going through cheerio's selectors per field cost ten times as much.
 */

export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true });
}

function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

export function classList(element: Element): string[] {
  const value = element.attribs.class;
  return value ? value.split(/\s+/) : [];
}

export function hasClass(element: Element, name: string): boolean {
  const value = element.attribs.class;
  // Most elements fail the cheap substring test; only candidates are split.
  if (!value || !value.includes(name)) return false;
  return value === name || value.split(/\s+/).includes(name);
}

/** Depth-first, in document order; `visit` returning false skips the element's children. */
export function walk(root: AnyNode, visit: (element: Element) => boolean | void): void {
  const children = (root as { children?: AnyNode[] }).children;
  if (!children) return;
  // Recursion (a page is a few dozen levels deep) costs less than a stack: each row is walked several times.
  for (let i = 0; i < children.length; i += 1) {
    const child = children[i]!;
    // Only elements (and CDATA, which holds text) are visited or descended into.
    if (child.type === 'text' || child.type === 'comment') continue;
    if (isElement(child) && visit(child) === false) continue;
    walk(child, visit);
  }
}

export function findAll(root: AnyNode, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  walk(root, (element) => {
    if (test(element)) found.push(element);
  });
  return found;
}

export function findFirst(root: AnyNode, test: (element: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  walk(root, (element) => {
    if (found) return false;
    if (test(element)) {
      found = element;
      return false;
    }
    return true;
  });
  return found;
}

/** The text nodes under `root`, in document order, entering only the nodes below it that `enter` allows. */
function collectText(root: AnyNode, enter: (node: AnyNode) => boolean): string {
  let text = '';
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') {
      text += (node as { data: string }).data;
      continue;
    }
    if (node !== root && !enter(node)) continue;
    const children = (node as { children?: AnyNode[] }).children;
    if (children) for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return text;
}

/** The text under a node, leaving out scripts, styles and any element `skip` names. */
export function rawText(root: AnyNode, skip?: (element: Element) => boolean): string {
  return collectText(root, (node) => !isElement(node) || (node.type === 'tag' && !skip?.(node)));
}

export function textOf(root: AnyNode, skip?: (element: Element) => boolean): string {
  return cleanText(rawText(root, skip));
}

/**
 * The text under a node as cheerio's `.text()` gives it: every text node, those of scripts and
 * styles included, leaving out subtrees `skip` names (below the node itself).
 */
export function textContent(root: AnyNode, skip?: (element: Element) => boolean): string {
  return collectText(root, (node) => !(skip && isElement(node) && skip(node)));
}

/** Whether `ancestor` holds `element` (below itself). */
export function isInside(element: AnyNode, ancestor: AnyNode): boolean {
  for (let node = element.parent; node; node = node.parent) if (node === ancestor) return true;
  return false;
}

/** Whether an element above `element` (below the document) passes `test`. */
export function hasAncestor(element: AnyNode, test: (ancestor: Element) => boolean): boolean {
  for (let node = element.parent; node && node.type !== 'root'; node = node.parent) if (test(node as Element)) return true;
  return false;
}
