import type { AnyNode } from 'domhandler';

/** A tree as nested arrays: elements with their kept attributes, text merged, comments and declarations left out. */
export function shape(nodes: AnyNode[], keep: ReadonlySet<string>): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    if (node.type === 'text') {
      const last = out.at(-1);
      if (typeof last === 'string') out[out.length - 1] = last + node.data;
      else out.push(node.data);
    } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const attribs = Object.fromEntries(Object.entries(node.attribs).filter(([name]) => keep.has(name)));
      out.push([node.name, attribs, shape(node.children, keep)]);
    } else if (node.type === 'cdata') {
      out.push(...shape(node.children, keep));
    }
  }
  return out;
}
