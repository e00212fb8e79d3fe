import { StringDecoder } from 'node:string_decoder';
import { columnLetters, maxColumn, parseCellRef } from './columns';
import { FileProblem, maxSmallPartBytes, type WorkbookInfo } from './file-check';
import { maxPendingXmlChars } from './sheet-reader';
import { attr as xmlAttr, scanXml, type Tag } from './xml-scan';
import { createZipWriter, entryData, inflatedChunks, rawEntryData, readZipDirectory, type ZipEntry, type ZipSink } from './zip';

/**
 * The errors file: the workbook the shop sent, with each failed row filled in a light red and its
 * errors written in a new column right of the table. Only the sheet's XML and styles.xml change (a
 * fill, a few cell formats, the new cells); every other part of the archive is copied byte for byte, so
 * formulas, pictures, other sheets and formatting survive as they were. Runs in the import worker.
 *
 * The sheet is never whole in memory: it is inflated, patched tag by tag and deflated into the new
 * archive as it goes (a first pass finds the rightmost column, where the errors column goes after), so
 * memory is bounded by the pieces in flight whatever the sheet's size.
 */

export interface RowMark {
  row: number;
  /** Lines written in the errors column; empty: the row is only filled. */
  messages: string[];
}

export interface ErrorsFileRequest {
  info: WorkbookInfo;
  marks: RowMark[];
  /** Header row for the column's title (rowStart − 1), when the table has one. */
  headerRow?: number;
  title: string;
}

/** Excel's own "bad" light red. */
const fillColor = 'FFFFC7CE';
const fontColor = 'FF9C0006';
const maxCellText = 32_000;

const escapeXml = (s: string) =>
  s
    // characters XML 1.0 cannot carry at all
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const setAttr = (attrs: string, name: string, value: string) =>
  new RegExp(`\\s${name}="[^"]*"`).test(attrs) ? attrs.replace(new RegExp(`\\s${name}="[^"]*"`), ` ${name}="${value}"`) : `${attrs} ${name}="${value}"`;
const dropAttr = (attrs: string, name: string) => attrs.replace(new RegExp(`\\s${name}="[^"]*"`), '');

const minimalStyles =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '</styleSheet>';

/** Adds an element to a `<name count="n">…</name>` list (creating the list before `before` if missing); returns its index. */
function appendToList(xml: { text: string }, name: string, element: string, before: string[]): number {
  const open = new RegExp(`<${name}\\b[^>]*?(/?)>`);
  const m = open.exec(xml.text);
  if (!m) {
    const at = before.map((b) => xml.text.indexOf(`<${b}`)).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? xml.text.indexOf('</styleSheet>');
    xml.text = `${xml.text.slice(0, at)}<${name} count="1">${element}</${name}>${xml.text.slice(at)}`;
    return 0;
  }
  if (m[1] === '/') {
    xml.text = xml.text.replace(m[0], `<${name} count="1">${element}</${name}>`);
    return 0;
  }
  const close = xml.text.indexOf(`</${name}>`, m.index);
  const body = xml.text.slice(m.index + m[0].length, close);
  const child = name === 'cellXfs' ? 'xf' : name.slice(0, -1);
  const index = [...body.matchAll(new RegExp(`<${child}\\b[^>]*?(?:/>|>[\\s\\S]*?</${child}>)`, 'g'))].length;
  const head = setAttr(m[0].replace(/\/?>$/, ''), 'count', String(index + 1)) + '>';
  xml.text = `${xml.text.slice(0, m.index)}${head}${body}${element}${xml.text.slice(close)}`;
  return index;
}

function cellFormats(stylesXml: string) {
  const m = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml);
  return m ? [...m[1].matchAll(/<xf\b[^>]*?(?:\/>|>[\s\S]*?<\/xf>)/g)].map((x) => x[0]) : [];
}

/** A cell format like `xf` but filled (and, for the errors column, wrapped and red text). */
function withFill(xf: string, fillId: number, fontId?: number): string {
  const selfClosing = /\/>$/.test(xf);
  let head = (selfClosing ? xf.slice(0, -2) : xf.slice(0, xf.indexOf('>'))).trimEnd();
  head = setAttr(setAttr(head, 'fillId', String(fillId)), 'applyFill', '1');
  let inner = selfClosing ? '' : xf.slice(xf.indexOf('>') + 1, xf.lastIndexOf('</xf>'));
  if (fontId !== undefined) {
    head = setAttr(setAttr(head, 'fontId', String(fontId)), 'applyFont', '1');
    head = setAttr(head, 'applyAlignment', '1');
    inner = /<alignment\b/.test(inner)
      ? inner.replace(/<alignment\b([^>]*?)(\/?)>/, (_, a: string, s: string) => `<alignment${setAttr(setAttr(a, 'wrapText', '1'), 'vertical', 'top')}${s}>`)
      : `<alignment wrapText="1" vertical="top"/>${inner}`;
  }
  return inner ? `${head}>${inner}</xf>` : `${head}/>`;
}

/**
 * What the first pass finds: the sheet's extent (the errors column goes right of every column used) and
 * the cell formats of the marked rows (their filled copies go into styles.xml, written before the sheet).
 */
interface SheetSurvey {
  rightmost: number;
  /** The dimension's bottom row (0 without one). */
  dimensionBottom: number;
  markedFormats: Set<number>;
}

/** A marked row's own format, which its empty cells take (when the row says so). */
const rowFormatOf = (rowAttrs: string) => (/\bcustomFormat="(1|true)"/.test(rowAttrs) ? Number(xmlAttr(rowAttrs, 's') ?? 0) : 0);

/**
 * Feeds text pieces to a tag scanner, keeping only an incomplete tag between pieces (capped, as the
 * reader caps it). `onPiece` gets each piece's scanned text (from 0 to where scanning stopped).
 */
function tagStream(onTag: (tag: Tag, text: string) => void, onScanned: (text: string, upTo: number) => void) {
  let pending = '';
  const scan = (text: string, to: number) => {
    const stop = scanXml(text, 0, to, (tag) => onTag(tag, text), () => {});
    onScanned(text, stop);
    return stop;
  };
  return {
    push(piece: string) {
      const end = piece.lastIndexOf('>');
      if (end < 0) {
        pending += piece;
        if (pending.length > maxPendingXmlChars) throw new FileProblem('damaged', 'The sheet holds a tag longer than the reader accepts; no errors file can be made of it.', 'import.problem.unreadable');
        return;
      }
      const whole = pending + piece;
      pending = whole.slice(scan(whole, pending.length + end + 1));
    },
    end() {
      if (pending) scan(pending, pending.length);
      pending = '';
    },
  };
}

/** The sheet's text, piece by piece (utf8 decoded across pieces); never past its declared size. */
async function* sheetText(bytes: Buffer, entry: ZipEntry): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let unpacked = 0;
  for await (const chunk of inflatedChunks(rawEntryData(bytes, entry), entry.method)) {
    unpacked += chunk.length;
    if (unpacked > entry.size) throw new FileProblem('zip-bomb', `The sheet unpacks to more than the ${entry.size.toLocaleString('en')} bytes its file says it holds.`, 'import.problem.bomb');
    yield decoder.write(chunk);
  }
  yield decoder.end();
}

/** First pass: the rightmost column any cell (or the dimension) names, the dimension's bottom, the marked rows' formats. */
async function surveySheet(bytes: Buffer, entry: ZipEntry, marked: (row: number) => boolean): Promise<SheetSurvey> {
  const extent: SheetSurvey = { rightmost: 0, dimensionBottom: 0, markedFormats: new Set([0]) };
  let implicit = 0;
  let row = 0;
  let inMarked = false;
  let rowFormat = 0;
  const tags = tagStream((tag) => {
    if (tag.closing) return;
    if (tag.name === 'row') {
      implicit = 0;
      row = Number(xmlAttr(tag.attrs, 'r') ?? row + 1);
      inMarked = marked(row);
      rowFormat = inMarked ? rowFormatOf(tag.attrs) : 0;
      if (inMarked) extent.markedFormats.add(rowFormat);
    } else if (tag.name === 'c') {
      const ref = xmlAttr(tag.attrs, 'r');
      implicit = (ref && parseCellRef(ref)?.column) || implicit + 1;
      if (implicit > extent.rightmost) extent.rightmost = implicit;
      if (inMarked) extent.markedFormats.add(Number(xmlAttr(tag.attrs, 's') ?? rowFormat));
    } else if (tag.name === 'dimension') {
      const [, to] = (xmlAttr(tag.attrs, 'ref') ?? '').split(':');
      const end = parseCellRef(to ?? xmlAttr(tag.attrs, 'ref') ?? '');
      if (end) {
        extent.rightmost = Math.max(extent.rightmost, end.column);
        extent.dimensionBottom = end.row;
      }
    }
  }, () => {});
  for await (const text of sheetText(bytes, entry)) tags.push(text);
  tags.end();
  return extent;
}

/** The tag written again with new (raw) attributes, its name as written; `open` makes a self-closing tag an opening one. */
const withAttrs = (tag: Tag, text: string, attrs: string, open = false) => {
  const raw = text.slice(tag.start, tag.end);
  const head = raw.slice(0, raw.length - tag.attrs.length - (tag.selfClosing ? 2 : 1));
  return `${head}${attrs}${tag.selfClosing && !open ? '/>' : '>'}`;
};

/** The namespace prefix of a tag as written (`x:` of `<x:row>`), for the elements written beside it. */
const prefixOf = (tag: Tag, text: string) => {
  const raw = text.slice(tag.start + (tag.closing ? 2 : 1), tag.end);
  const colon = raw.indexOf(':');
  return colon >= 0 && colon < raw.indexOf(tag.name) ? raw.slice(0, colon + 1) : '';
};

/** Writes the errors file into `sink` (a zip archive, entry by entry). Throws FileProblem. */
export async function writeErrorsFile(bytes: Buffer, request: ErrorsFileRequest, sink: ZipSink): Promise<void> {
  const entries = readZipDirectory(bytes);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const sheetEntry = byName.get(request.info.sheetPath);
  if (!sheetEntry) throw new FileProblem('no-sheet', `The sheet «${request.info.sheetName}» is missing from the file.`, 'import.problem.noSheet');
  const small = (entry: ZipEntry) => entryData(bytes, entry, maxSmallPartBytes).toString('utf8');

  // styles.xml: one new fill, one red font, a filled copy of each format the marked rows use
  const stylesPath = 'xl/styles.xml';
  const stylesEntry = byName.get(stylesPath);
  const styles = { text: stylesEntry ? small(stylesEntry) : minimalStyles };
  const fillId = appendToList(styles, 'fills', `<fill><patternFill patternType="solid"><fgColor rgb="${fillColor}"/><bgColor indexed="64"/></patternFill></fill>`, [
    'borders', 'cellStyleXfs', 'cellXfs',
  ]);
  const fontId = appendToList(styles, 'fonts', `<font><sz val="10"/><color rgb="${fontColor}"/><name val="Calibri"/></font>`, [
    'fills', 'borders', 'cellStyleXfs', 'cellXfs',
  ]);
  let formats = cellFormats(styles.text);
  if (formats.length === 0) {
    appendToList(styles, 'cellXfs', '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>', ['cellStyles', 'dxfs', 'tableStyles', 'colors', 'extLst']);
    formats = cellFormats(styles.text);
  }
  const marks = new Map(request.marks.map((m) => [m.row, m]));
  const extent = await surveySheet(bytes, sheetEntry, (row) => marks.has(row));
  const filled = new Map<number, number>();
  for (const s of extent.markedFormats) filled.set(s, appendToList(styles, 'cellXfs', withFill(formats[s] ?? formats[0], fillId), []));
  const filledFormat = (s: number) => filled.get(s) ?? filled.get(0)!;
  const messageFormat = appendToList(styles, 'cellXfs', withFill(formats[0], fillId, fontId), []);

  // the errors column: right of every column the sheet uses (within XFD: a sheet that uses XFD loses that column in the copy)
  const errorColumn = Math.min(Math.max(extent.rightmost, 1) + 1, maxColumn);
  const errorLetters = columnLetters(errorColumn);
  // the marked rows (and the header) the sheet may not have: written where they belong
  const missing = [...new Set([...marks.keys(), ...(request.headerRow !== undefined && request.headerRow >= 1 ? [request.headerRow] : [])])].sort((a, b) => a - b);
  let nextMissing = 0;
  const bottom = Math.max(extent.dimensionBottom, missing.at(-1) ?? 0, 1);

  const textCell = (p: string, row: number, text: string, s?: number) =>
    `<${p}c r="${errorLetters}${row}"${s !== undefined ? ` s="${s}"` : ''} t="inlineStr"><${p}is><${p}t xml:space="preserve">${escapeXml(text.slice(0, maxCellText))}</${p}t></${p}is></${p}c>`;
  const emptyFilled = (p: string, column: number, row: number, s: number) => `<${p}c r="${columnLetters(column)}${row}" s="${filledFormat(s)}"/>`;

  // the row being copied
  let p = '';
  let rowNumber = 0;
  let lastRow = 0;
  let mark: RowMark | undefined;
  let isHeader = false;
  let rowStyle = 0;
  let column = 0;
  let inCell = false;
  let skipping = false;
  let rowEnded = false;
  let sawCols = false;
  let colCovered = false;
  let colsBefore = true;

  /** What a marked or header row gets after its last cell: filled gaps to the errors column, then its messages or the title. */
  const rowTail = () => {
    rowEnded = true;
    let out = '';
    if (mark) {
      for (let c = column + 1; c < errorColumn; c++) out += emptyFilled(p, c, rowNumber, rowStyle);
      out += mark.messages.length ? textCell(p, rowNumber, mark.messages.join('\n'), messageFormat) : emptyFilled(p, errorColumn, rowNumber, 0);
    } else if (isHeader) out += textCell(p, rowNumber, request.title);
    return out;
  };
  /** Rows the sheet lacks, numbered below `limit`: a marked row the sheet has no cells for still shows. */
  const missingBefore = (limit: number) => {
    let out = '';
    for (; nextMissing < missing.length && missing[nextMissing] < limit; nextMissing++) {
      const r = missing[nextMissing];
      if (r <= lastRow) continue;
      startRow(r);
      out += `<${p}row r="${r}">${rowTail()}</${p}row>`;
    }
    return out;
  };
  const startRow = (r: number) => {
    rowNumber = r;
    mark = marks.get(r);
    isHeader = r === request.headerRow && !mark;
    column = 0;
    rowEnded = false;
    rowStyle = 0;
  };
  const colXml = `<col min="${errorColumn}" max="${errorColumn}" width="60" customWidth="1"/>`;

  let out: string[] = [];
  let copied = 0;
  /** Replaces the tag's text with `replacement` (the text before it copied as it was). */
  const replaceTag = (tag: Tag, text: string, replacement: string) => {
    if (!skipping) out.push(text.slice(copied, tag.start));
    out.push(replacement);
    copied = tag.end;
  };
  /** Puts `extra` before the tag (the tag itself stays). */
  const before = (tag: Tag, text: string, extra: string) => {
    if (!extra) return;
    out.push(text.slice(copied, tag.start), extra);
    copied = tag.start;
  };

  const onTag = (tag: Tag, text: string) => {
    const { name } = tag;
    if (skipping) {
      // a cell past the errors column (only when the sheet uses XFD): left out of the copy
      if (name === 'c' && (tag.closing || tag.selfClosing)) {
        skipping = false;
        copied = tag.end;
      }
      return;
    }
    if (name === 'c' && !tag.closing && rowNumber > 0) {
      const ref = xmlAttr(tag.attrs, 'r');
      const c = (ref && parseCellRef(ref)?.column) || column + 1;
      if (c >= errorColumn) {
        out.push(text.slice(copied, tag.start));
        copied = tag.end;
        skipping = !tag.selfClosing;
        return;
      }
      if (mark) {
        let gap = '';
        for (let g = column + 1; g < c; g++) gap += emptyFilled(p, g, rowNumber, rowStyle);
        const s = filledFormat(Number(xmlAttr(tag.attrs, 's') ?? rowStyle));
        replaceTag(tag, text, gap + withAttrs(tag, text, setAttr(setAttr(tag.attrs, 'r', `${columnLetters(c)}${rowNumber}`), 's', String(s))));
      }
      column = c;
      inCell = !tag.selfClosing;
      return;
    }
    if (name === 'c' && tag.closing) {
      inCell = false;
      return;
    }
    if (name === 'row') {
      if (tag.closing) {
        if (!rowEnded) before(tag, text, rowTail());
        rowNumber = 0;
        return;
      }
      p = prefixOf(tag, text);
      const r = Number(xmlAttr(tag.attrs, 'r') ?? lastRow + 1);
      const earlier = missingBefore(r);
      lastRow = r;
      startRow(r);
      if (!mark && !isHeader) {
        before(tag, text, earlier);
        if (tag.selfClosing) rowNumber = 0;
        return;
      }
      if (mark) rowStyle = rowFormatOf(tag.attrs);
      const attrs = dropAttr(setAttr(tag.attrs, 'r', String(r)), 'spans');
      if (tag.selfClosing) {
        replaceTag(tag, text, `${earlier}${withAttrs(tag, text, attrs, true)}${rowTail()}</${p}row>`);
        rowNumber = 0;
      } else replaceTag(tag, text, earlier + withAttrs(tag, text, attrs));
      return;
    }
    if (name === 'extLst' && !tag.closing && rowNumber > 0 && !inCell && !rowEnded) {
      before(tag, text, rowTail());
      return;
    }
    if (name === 'dimension' && !tag.closing) {
      const ref = xmlAttr(tag.attrs, 'ref');
      if (ref) replaceTag(tag, text, withAttrs(tag, text, setAttr(tag.attrs, 'ref', `${ref.split(':')[0]}:${errorLetters}${bottom}`)));
      return;
    }
    if (name === 'cols') {
      if (!tag.closing) sawCols = true;
      if (tag.selfClosing) replaceTag(tag, text, `<${prefixOf(tag, text)}cols>${colXml.replace('<col', `<${prefixOf(tag, text)}col`)}</${prefixOf(tag, text)}cols>`);
      else if (tag.closing && !colCovered && colsBefore) before(tag, text, colXml.replace('<col', `<${prefixOf(tag, text)}col`));
      return;
    }
    if (name === 'col' && !tag.closing) {
      const min = Number(xmlAttr(tag.attrs, 'min'));
      const max = Number(xmlAttr(tag.attrs, 'max'));
      if (min <= errorColumn && max >= errorColumn) colCovered = true;
      if (!(max < errorColumn)) colsBefore = false;
      return;
    }
    if (name === 'sheetData') {
      const sp = prefixOf(tag, text);
      if (tag.closing) {
        before(tag, text, missingBefore(Number.MAX_SAFE_INTEGER));
        return;
      }
      p = sp;
      const cols = sawCols ? '' : `<${sp}cols>${colXml.replace('<col', `<${sp}col`)}</${sp}cols>`;
      if (tag.selfClosing) replaceTag(tag, text, `${cols}<${sp}sheetData${tag.attrs}>${missingBefore(Number.MAX_SAFE_INTEGER)}</${sp}sheetData>`);
      else before(tag, text, cols);
    }
  };

  const tags = tagStream(onTag, (text, upTo) => {
    if (!skipping) out.push(text.slice(copied, upTo));
    copied = 0;
  });
  async function* patchedSheet(): AsyncGenerator<Buffer> {
    for await (const text of sheetText(bytes, sheetEntry!)) {
      tags.push(text);
      if (out.length) yield Buffer.from(out.join(''), 'utf8');
      out = [];
    }
    tags.end();
    if (out.length) yield Buffer.from(out.join(''), 'utf8');
    out = [];
  }

  const zip = createZipWriter(sink);
  const stylesXml = Buffer.from(styles.text, 'utf8');
  for (const entry of entries) {
    if (entry === sheetEntry) await zip.addStream(entry, patchedSheet());
    else if (entry === stylesEntry) zip.add(entry, stylesXml);
    else if (!stylesEntry && entry.name === '[Content_Types].xml') {
      zip.add(entry, Buffer.from(small(entry).replace('</Types>', '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>'), 'utf8'));
    } else if (!stylesEntry && entry.name === 'xl/_rels/workbook.xml.rels') {
      const link = '<Relationship Id="rIdShipDeskStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>';
      zip.add(entry, Buffer.from(small(entry).replace('</Relationships>', `${link}</Relationships>`), 'utf8'));
    } else zip.copy(bytes, entry);
  }
  if (!stylesEntry) zip.add({ name: stylesPath }, stylesXml); // a workbook without styles: the part is added (and registered above)
  zip.finish();
}
