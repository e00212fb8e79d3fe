import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/**
 * XML as the interface uses it: root `request` / `response`, list elements `item`, booleans 1/0.
 * Values stay text on the way in; the zod schemas accept numbers and booleans written as text.
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const builder = new XMLBuilder({ format: false, suppressEmptyNode: true, processEntities: true });

/** `{ item: x }` or `{ item: [x, y] }` become arrays; everything else keeps its shape. */
function fromXmlTree(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromXmlTree);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>);
  if (entries.length === 1 && entries[0][0] === 'item') {
    const items = entries[0][1];
    return (Array.isArray(items) ? items : [items]).map(fromXmlTree);
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, fromXmlTree(v)]));
}

function toXmlTree(value: unknown): unknown {
  if (Array.isArray(value)) return { item: value.map(toXmlTree) };
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toXmlTree(v)]));
  return value;
}

export class XmlSyntaxError extends Error {}

/** Parses a request document; its root element (normally `request`) is unwrapped. */
export function parseXmlBody(text: string): unknown {
  let tree: Record<string, unknown>;
  try {
    tree = parser.parse(text, true) as Record<string, unknown>; // true: validate, throw on malformed XML
  } catch (error) {
    const detail = typeof error === 'object' && error && 'err' in error ? JSON.stringify((error as { err: unknown }).err) : String(error);
    throw new XmlSyntaxError(`Malformed XML: ${detail}`);
  }
  const roots = Object.keys(tree);
  if (roots.length !== 1) throw new XmlSyntaxError('Malformed XML: the document must have one root element (request)');
  const root = tree[roots[0]];
  return root === '' ? {} : fromXmlTree(root);
}

/** Serializes a response value under the root element `response`. */
export function toXmlDocument(value: unknown, root = 'response'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: toXmlTree(value) })}`;
}
