import { PDFDocument } from 'pdf-lib';
import { defaultResourcesDir } from '../lists/reference-data';
import { crop, decodeBarcode, renderPage } from '../../../test/helpers/printed-pages';
import { loadPrintFonts } from './fonts';
import type { LabelData } from './label';
import { labelsPdf } from './label-pdf';
import { formatRubles } from './format';
import { labelsZpl } from './label-zpl';
import { mm } from './pdf-document';

const fonts = loadPrintFonts(defaultResourcesDir);

const label = (n: number, patch: Partial<LabelData> = {}): LabelData => ({
  service: 'Песочница Экспресс',
  tariff: 'Курьер до двери',
  providerNumber: `SBX-${100000 + n}`,
  clientNumber: `SHOP-${n}`,
  recipient: { name: 'Анна Смирнова', phone: '+79219876543', address: 'Санкт-Петербург, Невский проспект, д. 28' },
  point: null,
  place: 1,
  places: 1,
  weightGrams: 1200,
  codKopecks: 299050,
  sender: 'ООО «Ромашка», Иван Петров, +79161234567, Москва',
  ...patch,
});

/** The band of a label that holds its Code 128 (a scanner is aimed at it, not at the whole label). */
const barcodeBand = { x: 0, y: 0.08, width: 1, height: 0.25 };

const pageSizes = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())]);

describe('labels drawn by ShipDesk', () => {
  it('thermal: one 100×150 mm page per label, in the given order, each barcode scanning back to its service number', async () => {
    const pdf = await labelsPdf([label(1), label(2), label(3)], { kind: 'thermal' }, fonts);
    expect(await pageSizes(pdf)).toEqual(Array(3).fill([Math.round(100 * mm), Math.round(150 * mm)]));
    for (const [i, n] of [1, 2, 3].entries()) {
      const page = renderPage(pdf, i + 1);
      expect(decodeBarcode(crop(page, barcodeBand), 'code128')).toBe(`SBX-${100000 + n}`);
      // The 2D code sits in the bottom right corner.
      expect(decodeBarcode(crop(page, { x: 0.6, y: 0.75, width: 0.4, height: 0.25 }), 'datamatrix')).toBe(`SBX-${100000 + n}`);
    }
  });

  it('A4: four A6 labels to a sheet, the first in the chosen quarter, so a half-used sheet is finished first', async () => {
    const pdf = await labelsPdf([1, 2, 3, 4].map((n) => label(n)), { kind: 'a4', startQuarter: 3 }, fonts);
    // Quarters 3 and 4 of the first sheet, then 1 and 2 of the second.
    expect(await pageSizes(pdf)).toEqual([[595, 842], [595, 842]]);
    const quarters = [
      { x: 0, y: 0, width: 0.5, height: 0.5 },
      { x: 0.5, y: 0, width: 0.5, height: 0.5 },
      { x: 0, y: 0.5, width: 0.5, height: 0.5 },
      { x: 0.5, y: 0.5, width: 0.5, height: 0.5 },
    ];
    const first = renderPage(pdf, 1, 150);
    const second = renderPage(pdf, 2, 150);
    expect(quarters.map((q) => decodeBarcode(crop(crop(first, q), barcodeBand), 'code128'))).toEqual([null, null, 'SBX-100001', 'SBX-100002']);
    expect(quarters.map((q) => decodeBarcode(crop(crop(second, q), barcodeBand), 'code128'))).toEqual(['SBX-100003', 'SBX-100004', null, null]);
  });

  it('the text is Russian in the embedded font, so any PDF viewer shows it', async () => {
    const pdf = Buffer.from(await labelsPdf([label(1)], { kind: 'thermal' }, fonts));
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);
    expect(pdf.toString('latin1')).toMatch(/DejaVuSans/);
  });

  it('ZPL: one ^XA … ^XZ block per label, each with the service number as Code 128 and DataMatrix, text in UTF-8', () => {
    const zpl = labelsZpl([label(1), label(2, { place: 2, places: 2, codKopecks: 0, clientNumber: 'A^B~C_D' })]);
    const blocks = zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
    expect(blocks).toHaveLength(2);
    expect(zpl.replace(/\^XA[\s\S]*?\^XZ\n?/g, '')).toBe('');
    for (const [i, block] of blocks.entries()) {
      expect(block).toContain('^CI28');
      // Every text field in the resident Unicode font (font 0 has no Cyrillic): font 1 named to it, no ^A0.
      expect(block).toContain('^CW1,E:TT0003M_.FNT');
      expect(block.match(/\^A\d/g)?.every((font) => font === '^A1')).toBe(true);
      expect(block).toMatch(new RegExp(`\\^BCN[^\\^]*\\^FH_\\^FDSBX-10000${i + 1}\\^FS`));
      expect(block).toMatch(new RegExp(`\\^BXN[^\\^]*\\^FH_\\^FDSBX-10000${i + 1}\\^FS`));
    }
    expect(blocks[0]).toContain('Наложенный платёж');
    expect(blocks[1]).not.toContain('Наложенный платёж');
    expect(blocks[1]).toContain('2 из 2');
    // Characters that would start a ZPL command inside the text are hex-escaped.
    expect(blocks[1]).toContain('^FH_^FDA_5EB_7EC_5FD^FS');
  });

  it('ZPL: the Russian text reads back from the bytes a printer gets (UTF-8 under ^CI28, ^FH escapes decoded)', () => {
    const odd = label(3, { recipient: { name: 'Пётр Ёжиков_2 ^ЮЛ~', phone: '+79170000000', address: 'Уфа, ул. Ленина, д. 5' }, sender: 'ИП «Щукин», Чебоксары' });
    const bytes = Buffer.from(labelsZpl([odd]), 'utf8');
    const fields = zplFieldsOf(bytes);
    expect(fields).toEqual(expect.arrayContaining(['Песочница Экспресс', 'Пётр Ёжиков_2 ^ЮЛ~', 'Уфа, ул. Ленина, д. 5', 'ИП «Щукин», Чебоксары', `Наложенный платёж: ${formatRubles(299050)}`, '1 из 1']));
    // Every field is valid UTF-8 read the printer's way; nothing came out as Latin-1 mojibake.
    expect(fields.join(' ')).not.toMatch(/[ÐÑ]/);
  });
});

/**
 * The field data of a ZPL stream as a printer with ^CI28 reads it: the bytes between ^FD and ^FS, where a
 * field opened with ^FH_ turns each `_XX` into the byte 0xXX, and the whole is decoded as UTF-8.
 */
function zplFieldsOf(stream: Buffer): string[] {
  const fields: string[] = [];
  const text = stream.toString('latin1'); // one char per byte, so offsets are byte offsets
  const pattern = /(\^FH(.))?\^FD([\s\S]*?)\^FS/g;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const escape = m[2];
    const raw = Buffer.from(m[3], 'latin1');
    const out: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      if (escape && raw[i] === escape.charCodeAt(0)) {
        out.push(parseInt(raw.subarray(i + 1, i + 3).toString('latin1'), 16));
        i += 2;
      } else out.push(raw[i]);
    }
    fields.push(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(out)));
  }
  return fields;
}

