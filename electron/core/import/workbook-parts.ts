import { FileProblem } from './file-check';
import { attr, scanXml, xmlText } from './xml-scan';
import { entryData, ZipFormatError, type ZipEntry } from './zip';

/**
 * What a sheet's cells refer to: the shared strings, which cell styles show numbers as dates, and the
 * workbook's date system. Read whole (they are small beside the sheet) before the sheet is streamed.
 */
export interface WorkbookParts {
  sharedStrings: string[];
  /** dateStyles[s]: cell style s (the `s` attribute) formats numbers as dates or times. */
  dateStyles: boolean[];
  /** The 1904 date system (old Mac workbooks). */
  date1904: boolean;
}

/** exceljs' own test for a date number format (utils.isDateFmt): any y m d h s b outside quotes and brackets. */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const cleaned = format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]+/.test(cleaned);
}

/** Built-in number formats that are dates or times (ECMA-376 18.8.30; 27–36 and 50–58 are East Asian dates). */
const builtinDateFormat = (id: number) => (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);

/** Text of every `<si>`: its `<t>` runs joined, phonetic guides (`<rPh>`) left out. */
export function parseSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  let inSi = false;
  let inT = false;
  let inPhonetic = false;
  let current = '';
  scanXml(
    xml,
    0,
    xml.length,
    (tag) => {
      switch (tag.name) {
        case 'si':
          if (tag.closing) {
            strings.push(current);
            inSi = false;
          } else if (tag.selfClosing) strings.push('');
          else {
            inSi = true;
            current = '';
          }
          break;
        case 't':
          inT = inSi && !inPhonetic && !tag.closing && !tag.selfClosing;
          break;
        case 'rPh':
          inPhonetic = !tag.closing && !tag.selfClosing;
          break;
        default:
          break;
      }
    },
    (raw) => {
      if (inT) current += xmlText(raw);
    },
  );
  return strings;
}

/** Which cell styles (cellXfs, in order) show numbers as dates. */
export function parseDateStyles(xml: string): boolean[] {
  const formats = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  scanXml(
    xml,
    0,
    xml.length,
    (tag) => {
      if (tag.name === 'numFmt' && !tag.closing) {
        const id = Number(attr(tag.attrs, 'numFmtId'));
        formats.set(id, attr(tag.attrs, 'formatCode') ?? '');
      } else if (tag.name === 'cellXfs') inCellXfs = !tag.closing && !tag.selfClosing;
      else if (tag.name === 'xf' && inCellXfs && !tag.closing) {
        const id = Number(attr(tag.attrs, 'numFmtId') ?? 0);
        const custom = formats.get(id);
        styles.push(custom !== undefined ? isDateFormat(custom) : builtinDateFormat(id));
      }
    },
    () => {},
  );
  return styles;
}

/** The workbook's related parts by type (sharedStrings, styles), as paths in the archive. */
function relatedParts(relsXml: string): Map<string, string> {
  const found = new Map<string, string>();
  scanXml(
    relsXml,
    0,
    relsXml.length,
    (tag) => {
      if (tag.name !== 'Relationship' || tag.closing) return;
      const type = attr(tag.attrs, 'Type') ?? '';
      const target = attr(tag.attrs, 'Target');
      if (!target) return;
      const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/\/\.\//g, '/');
      found.set(type.slice(type.lastIndexOf('/') + 1), path);
    },
    () => {},
  );
  return found;
}

/** Reads the parts of the workbook a sheet's cells need. Throws FileProblem when one is damaged. */
export function readWorkbookParts(bytes: Buffer, entries: ZipEntry[], limitBytes: number): WorkbookParts {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const text = (name: string | undefined) => {
    const entry = name ? byName.get(name) : undefined;
    if (!entry) return '';
    try {
      return entryData(bytes, entry, limitBytes).toString('utf8');
    } catch (error) {
      if (error instanceof ZipFormatError) throw new FileProblem('damaged', `The workbook cannot be read: ${error.message}.`, 'import.problem.unreadable');
      throw error;
    }
  };
  const related = relatedParts(text('xl/_rels/workbook.xml.rels'));
  const workbookPr = /<(?:\w+:)?workbookPr\b([^>]*)>/.exec(text('xl/workbook.xml'));
  const date1904 = workbookPr ? ['1', 'true'].includes(attr(workbookPr[1], 'date1904') ?? '') : false;
  return {
    sharedStrings: parseSharedStrings(text(related.get('sharedStrings') ?? 'xl/sharedStrings.xml')),
    dateStyles: parseDateStyles(text(related.get('styles') ?? 'xl/styles.xml')),
    date1904,
  };
}
