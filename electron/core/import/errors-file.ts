import { columnLetters, columnNumber, parseCellRef } from './columns';
import { checkErrorsFileSize, FileProblem, type ImportLimits, type WorkbookInfo } from './file-check';
import { entryData, readZipDirectory, rewriteZip } from './zip';

/**
 * The errors file: the workbook the shop sent, with each failed row filled in a light red and its
 * errors written in a new column right of the table. Only the sheet's XML and styles.xml change (a
 * fill, a few cell formats, the new cells); every other part of the archive is copied byte for byte, so
 * formulas, pictures, other sheets and formatting survive as they were. Runs in the import worker.
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

const attr = (attrs: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1];
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

interface Cell {
  column: number;
  xml: string;
  attrs: string;
  body: string | null;
}

/** Writes the errors file; returns the new workbook's bytes. */
export function writeErrorsFile(bytes: Buffer, request: ErrorsFileRequest, limits: ImportLimits): Buffer {
  const entries = readZipDirectory(bytes);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const sheetEntry = byName.get(request.info.sheetPath);
  if (!sheetEntry) throw new FileProblem('no-sheet', `The sheet «${request.info.sheetName}» is missing from the file.`);
  checkErrorsFileSize(sheetEntry.size, limits);
  // (entryData stops at the declared size: a sheet that lies about it is not inflated past the limit)
  const limit = limits.maxErrorsFileSheetBytes;
  const sheetXml = entryData(bytes, sheetEntry, limit).toString('utf8');
  const replace = new Map<string, Buffer>();
  const add = new Map<string, Buffer>();

  // styles.xml: one new fill, one red font, a filled copy of each format the marked rows use
  const stylesPath = 'xl/styles.xml';
  const stylesEntry = byName.get(stylesPath);
  const styles = { text: stylesEntry ? entryData(bytes, stylesEntry, limit).toString('utf8') : minimalStyles };
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
  const filled = new Map<number, number>();
  const filledFormat = (s: number) => {
    let id = filled.get(s);
    if (id === undefined) {
      id = appendToList(styles, 'cellXfs', withFill(formats[s] ?? formats[0], fillId), []);
      filled.set(s, id);
    }
    return id;
  };
  const messageFormat = appendToList(styles, 'cellXfs', withFill(formats[0], fillId, fontId), []);

  // the errors column: right of every column the sheet uses
  let maxColumn = 0;
  for (const m of sheetXml.matchAll(/<c\b[^>]*?\sr="([A-Z]{1,3})\d+"/g)) maxColumn = Math.max(maxColumn, columnNumber(m[1]));
  const dim = /<dimension\b[^>]*?\bref="([^"]+)"/.exec(sheetXml);
  const dimRight = dim ? parseCellRef(dim[1].split(':').pop()!)?.column ?? 0 : 0;
  const errorColumn = Math.max(maxColumn, dimRight, 1) + 1;
  const errorLetters = columnLetters(errorColumn);

  const marks = new Map(request.marks.map((m) => [m.row, m]));
  const pending = new Set(marks.keys());
  if (request.headerRow !== undefined && request.headerRow >= 1) pending.add(request.headerRow);

  const textCell = (row: number, text: string, s?: number) =>
    `<c r="${errorLetters}${row}"${s !== undefined ? ` s="${s}"` : ''} t="inlineStr"><is><t xml:space="preserve">${escapeXml(text.slice(0, maxCellText))}</t></is></c>`;

  const rebuild = (rowNumber: number, rowAttrs: string, body: string): string => {
    const mark = marks.get(rowNumber);
    const isHeader = rowNumber === request.headerRow && !mark;
    const cells: Cell[] = [];
    let implicit = 0;
    for (const c of body.matchAll(/<c(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = attr(c[1], 'r');
      const column = ref ? (parseCellRef(ref)?.column ?? implicit + 1) : implicit + 1;
      implicit = column;
      cells.push({ column, xml: c[0], attrs: c[1], body: c[2] ?? null });
    }
    const rest = body.replace(/<c(?=[\s>/])[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g, ''); // extLst and the like, kept after the cells
    let out = '';
    if (mark) {
      const rowStyle = /\bcustomFormat="(1|true)"/.test(rowAttrs) ? Number(attr(rowAttrs, 's') ?? 0) : 0;
      const byColumn = new Map(cells.map((c) => [c.column, c]));
      for (let column = 1; column < errorColumn; column++) {
        const cell = byColumn.get(column);
        if (!cell) {
          out += `<c r="${columnLetters(column)}${rowNumber}" s="${filledFormat(rowStyle)}"/>`;
          continue;
        }
        const s = filledFormat(Number(attr(cell.attrs, 's') ?? rowStyle));
        const attrs = setAttr(setAttr(cell.attrs, 'r', `${columnLetters(column)}${rowNumber}`), 's', String(s));
        out += cell.body === null ? `<c${attrs}/>` : `<c${attrs}>${cell.body}</c>`;
      }
      out += mark.messages.length ? textCell(rowNumber, mark.messages.join('\n'), messageFormat) : `<c r="${errorLetters}${rowNumber}" s="${filledFormat(0)}"/>`;
    } else {
      out = cells.filter((c) => c.column < errorColumn).map((c) => c.xml).join('');
      if (isHeader) out += textCell(rowNumber, request.title);
    }
    return `<row${dropAttr(setAttr(rowAttrs, 'r', String(rowNumber)), 'spans')}>${out}${rest}</row>`;
  };

  const rowsBefore = (limitRow: number) => {
    let out = '';
    for (const r of [...pending].filter((r) => r < limitRow).sort((a, b) => a - b)) {
      pending.delete(r);
      out += rebuild(r, '', '');
    }
    return out;
  };

  let lastRow = 0;
  const patchRows = (sheetData: string) =>
    sheetData.replace(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g, (whole, rowAttrs: string, body: string | undefined) => {
      const r = Number(attr(rowAttrs, 'r') ?? lastRow + 1);
      lastRow = r;
      const before = rowsBefore(r);
      if (!pending.has(r)) return before + whole;
      pending.delete(r);
      return before + rebuild(r, rowAttrs, body ?? '');
    });

  let sheet = sheetXml.replace(/<sheetData\b([^>]*?)(?:\/>|>([\s\S]*?)<\/sheetData>)/, (_, a: string, inner: string | undefined) => {
    const patched = patchRows(inner ?? '');
    return `<sheetData${a}>${patched}${rowsBefore(Number.MAX_SAFE_INTEGER)}</sheetData>`;
  });
  if (dim) {
    const [from, to = from] = dim[1].split(':');
    const end = parseCellRef(to);
    const newTo = `${errorLetters}${Math.max(end?.row ?? 1, ...request.marks.map((m) => m.row))}`;
    sheet = sheet.replace(dim[0], dim[0].replace(dim[1], `${from}:${newTo}`));
  }
  // a wide errors column, unless the sheet already sets that column's width
  const colXml = `<col min="${errorColumn}" max="${errorColumn}" width="60" customWidth="1"/>`;
  const cols = /<cols>([\s\S]*?)<\/cols>/.exec(sheet);
  if (!cols) sheet = sheet.replace(/<sheetData\b/, `<cols>${colXml}</cols><sheetData`);
  else {
    const covered = [...cols[1].matchAll(/<col\b([^>]*)\/?>/g)].some((c) => Number(attr(c[1], 'min')) <= errorColumn && Number(attr(c[1], 'max')) >= errorColumn);
    const after = [...cols[1].matchAll(/<col\b([^>]*)\/?>/g)].every((c) => Number(attr(c[1], 'max')) < errorColumn);
    if (!covered && after) sheet = sheet.replace(cols[0], `<cols>${cols[1]}${colXml}</cols>`);
  }
  replace.set(request.info.sheetPath, Buffer.from(sheet, 'utf8'));

  if (stylesEntry) replace.set(stylesPath, Buffer.from(styles.text, 'utf8'));
  else {
    // a workbook without styles: add the part and register it
    add.set(stylesPath, Buffer.from(styles.text, 'utf8'));
    const types = byName.get('[Content_Types].xml');
    const rels = byName.get('xl/_rels/workbook.xml.rels');
    if (types) {
      const t = entryData(bytes, types, limit).toString('utf8');
      replace.set('[Content_Types].xml', Buffer.from(t.replace('</Types>', '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>'), 'utf8'));
    }
    if (rels) {
      const r = entryData(bytes, rels, limit).toString('utf8');
      replace.set(
        'xl/_rels/workbook.xml.rels',
        Buffer.from(r.replace('</Relationships>', '<Relationship Id="rIdShipDeskStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>'), 'utf8'),
      );
    }
  }
  return rewriteZip(bytes, entries, replace, add);
}

