import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { message, wireText, type MessageParam } from '../../../shared/messages';

/**
 * XML as the interface uses it: root `request` / `response`, list elements `item`, booleans 1/0.
 * Values stay text on the way in; the zod schemas accept numbers and booleans written as text.
 *
 * On the way out two things cannot be written as they are, and get one general rule each:
 * - An object with a key that is not an XML element name (`"1"`, `"bad name"`, `"#text"`, `"a:b"`…) is
 *   written as a list of its entries, `<item><key>1</key><value>…</value></item>`, in key order. Objects
 *   whose keys are all names keep the usual `<key>value</key>` form. (The points list already sends a
 *   point's worktime as `item{day,hours}`, so this rule does not touch it.)
 * - Characters XML 1.0 does not allow (control characters other than tab, CR, LF; lone surrogates;
 *   U+FFFE, U+FFFF) are replaced by U+FFFD in text, so the document always parses.
 */
/** How request documents are read; the body-parsing thread (body-parser.ts) uses the same options. */
export const xmlParserOptions = {
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

const parser = new XMLParser(xmlParserOptions);

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

/**
 * An XML 1.0 Name of the Basic Multilingual Plane without ':' (a namespace separator): what an element may be
 * called so that every XML parser (our own included) reads it back.
 */
const nameStart = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
// eslint-disable-next-line no-misleading-character-class -- ZWNJ and ZWJ are name characters of XML 1.0, listed alone on purpose
const xmlName = new RegExp(`^[${nameStart}][${nameStart}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040]*$`, 'u');

/** Whether a key can be written as an element name as it is. */
export const isXmlElementName = (key: string) => xmlName.test(key);

/** Characters outside XML 1.0's Char production (lone surrogates included). */
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML can carry it: characters XML does not allow become U+FFFD. */
export const xmlSafeText = (text: string) => text.replace(notXmlChar, '\uFFFD');

function toXmlTree(value: unknown): unknown {
  if (Array.isArray(value)) return { item: value.map(toXmlTree) };
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return xmlSafeText(value);
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.every(([k]) => isXmlElementName(k))) return Object.fromEntries(entries.map(([k, v]) => [k, toXmlTree(v)]));
    return { item: entries.map(([k, v]) => ({ key: xmlSafeText(k), value: toXmlTree(v) })) };
  }
  return value;
}

/** A document that is not well-formed XML: `detail` is what is wrong, the parser's words or ours by key. */
export class XmlSyntaxError extends Error {
  constructor(readonly detail: MessageParam) {
    super(`Malformed XML: ${typeof detail === 'object' ? wireText(detail) : detail}`);
    this.name = 'XmlSyntaxError';
  }
}

/** What fast-xml-parser threw, as one line (its validator throws `{ err: { code, msg, line } }`). */
export function describeXmlError(error: unknown): string {
  return typeof error === 'object' && error && 'err' in error ? JSON.stringify((error as { err: unknown }).err) : String(error);
}

/** The document tree of a request document, as fast-xml-parser reads it (the body-parsing threads do the same). */
export function parseXmlTree(text: string): Record<string, unknown> {
  try {
    return parser.parse(text, true) as Record<string, unknown>; // true: validate, throw on malformed XML
  } catch (error) {
    throw new XmlSyntaxError(describeXmlError(error));
  }
}

/** Parses a request document; its root element (normally `request`) is unwrapped. */
export function parseXmlBody(text: string): unknown {
  return fromXmlDocument(parseXmlTree(text));
}

/** The request value of a parsed document tree: its one root element unwrapped, `item` lists made arrays. */
export function fromXmlDocument(tree: Record<string, unknown>): unknown {
  const roots = Object.keys(tree);
  if (roots.length !== 1) throw new XmlSyntaxError(message('api.xmlOneRoot'));
  const root = tree[roots[0]];
  return root === '' ? {} : fromXmlTree(root);
}

/** Serializes a response value under the root element `response`. */
export function toXmlDocument(value: unknown, root = 'response'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: toXmlTree(value) })}`;
}
