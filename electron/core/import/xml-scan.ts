import { decodeXml } from './file-check';

/**
 * A minimal forward scanner over well-formed SpreadsheetML text: tags and the text between them, no DOM,
 * no events objects. Namespace prefixes (`<x:row>`) are dropped from names. Comments, processing
 * instructions and declarations are skipped; CDATA is text.
 */

export interface Tag {
  /** Local name (prefix dropped). */
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** The raw attribute text of the tag (for attr()). */
  attrs: string;
  /** Where the tag starts (its `<`) and ends (after its `>`) in the scanned text: a writer copying the text keeps what it does not change. */
  start: number;
  end: number;
}

/** The value of one attribute of a tag's raw attribute text, decoded; undefined when absent. */
export function attr(attrs: string, name: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = attrs.indexOf(name, from);
    if (at < 0) return undefined;
    from = at + name.length;
    const before = at === 0 ? ' ' : attrs[at - 1];
    // a whole attribute name: preceded by whitespace, followed by optional spaces and '='
    if (before !== ' ' && before !== '\n' && before !== '\t' && before !== '\r') continue;
    let p = from;
    while (attrs[p] === ' ') p++;
    if (attrs[p] !== '=') continue;
    p++;
    while (attrs[p] === ' ') p++;
    const quote = attrs[p];
    if (quote !== '"' && quote !== "'") continue;
    const end = attrs.indexOf(quote, p + 1);
    if (end < 0) return undefined;
    const raw = attrs.slice(p + 1, end);
    return raw.includes('&') ? decodeXml(raw) : raw;
  }
}

/** Text content as written in XML, entities decoded. */
export const xmlText = (raw: string) => (raw.includes('&') ? decodeXml(raw) : raw);

/**
 * Walks `text` from `from` to `to`, calling onTag for each tag and onText for each run of text between
 * tags (raw, not decoded). Returns where it stopped (the start of an incomplete tag, or `to`).
 */
export function scanXml(text: string, from: number, to: number, onTag: (tag: Tag) => void, onText: (raw: string) => void): number {
  let pos = from;
  while (pos < to) {
    const lt = text.indexOf('<', pos);
    if (lt < 0 || lt >= to) {
      if (to > pos) onText(text.slice(pos, to));
      return to;
    }
    if (lt > pos) onText(text.slice(pos, lt));
    const next = text.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0 || end + 3 > to) return lt;
        // CDATA is literal text: escape what decoding would otherwise change
        onText(text.slice(lt + 9, end).replace(/&/g, '&amp;'));
        pos = end + 3;
        continue;
      }
      const close = text.startsWith('<!--', lt) ? text.indexOf('-->', lt + 4) : text.indexOf('>', lt + 2);
      if (close < 0 || close >= to) return lt;
      pos = close + (text.startsWith('<!--', lt) ? 3 : 1);
      continue;
    }
    const gt = text.indexOf('>', lt + 1);
    if (gt < 0 || gt >= to) return lt;
    if (next === 63 /* ? */) {
      pos = gt + 1;
      continue;
    }
    const closing = next === 47; /* / */
    let nameStart = closing ? lt + 2 : lt + 1;
    let nameEnd = nameStart;
    for (;;) {
      const ch = text.charCodeAt(nameEnd);
      if (ch === 32 || ch === 62 || ch === 47 || ch === 10 || ch === 9 || ch === 13 || nameEnd >= gt) break;
      if (ch === 58 /* : */) nameStart = nameEnd + 1;
      nameEnd++;
    }
    const selfClosing = text.charCodeAt(gt - 1) === 47;
    onTag({ name: text.slice(nameStart, nameEnd), closing, selfClosing, attrs: text.slice(nameEnd, selfClosing ? gt - 1 : gt), start: lt, end: gt + 1 });
    pos = gt + 1;
  }
  return pos;
}
