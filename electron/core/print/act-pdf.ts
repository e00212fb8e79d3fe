import { formatAmount, formatDate, formatWeight } from './format';
import type { PrintFonts } from './fonts';
import { mm, newPdf, pdfBytes, type Pdf } from './pdf-document';
import { a4Size } from './label-pdf';

/** One order on a handover act. */
export interface ActRow {
  clientNumber: string;
  providerNumber: string;
  places: number;
  weightGrams: number;
  assessedKopecks: number;
  codKopecks: number;
}

/** A handover act («акт приёма-передачи») of one delivery service (print-forms.md). */
export interface ActData {
  number: string;
  /** The handover day (epoch ms). */
  date: number;
  city: string | null;
  shop: { name: string; details: string[] };
  service: string;
  rows: ActRow[];
}

export interface ActTotals {
  orders: number;
  places: number;
  weightGrams: number;
  assessedKopecks: number;
  codKopecks: number;
}

export function actTotals(rows: ActRow[]): ActTotals {
  return rows.reduce<ActTotals>(
    (t, r) => ({
      orders: t.orders + 1,
      places: t.places + r.places,
      weightGrams: t.weightGrams + r.weightGrams,
      assessedKopecks: t.assessedKopecks + r.assessedKopecks,
      codKopecks: t.codKopecks + r.codKopecks,
    }),
    { orders: 0, places: 0, weightGrams: 0, assessedKopecks: 0, codKopecks: 0 },
  );
}

const margin = 15 * mm;
const contentWidth = a4Size.width - 2 * margin;
const columns = [
  { title: '№', width: 10 * mm, align: 'right' as const },
  { title: 'Номер заказа магазина', width: 38 * mm, align: 'left' as const },
  { title: 'Номер службы доставки', width: 40 * mm, align: 'left' as const },
  { title: 'Мест', width: 14 * mm, align: 'right' as const },
  { title: 'Вес, кг', width: 18 * mm, align: 'right' as const },
  { title: 'Объявл. ценность, ₽', width: 30 * mm, align: 'right' as const },
  { title: 'Наложенный платёж, ₽', width: 30 * mm, align: 'right' as const },
];
const rowHeight = 16;
const cellPad = 3;

/** The acts in one PDF, each starting on its own A4 page; long tables go on over pages with their header. */
export async function actsPdf(acts: ActData[], fonts: PrintFonts): Promise<Buffer> {
  const doc = await newPdf(fonts, acts.length === 1 ? `Акт приёма-передачи № ${acts[0].number}` : 'Акты приёма-передачи');
  for (const act of acts) drawAct(doc, act);
  return pdfBytes(doc);
}

function newPage(doc: Pdf): number {
  doc.addPage({ size: [a4Size.width, a4Size.height], margin: 0 });
  return margin;
}

function drawRow(doc: Pdf, cells: string[], y: number, font: 'body' | 'bold', height = rowHeight): void {
  let x = margin;
  doc.font(font).fontSize(8.5);
  cells.forEach((cell, i) => {
    const column = columns[i];
    doc.rect(x, y, column.width, height).lineWidth(0.5).stroke();
    doc.text(cell, x + cellPad, y + (height - 10) / 2, { width: column.width - 2 * cellPad, align: column.align, lineBreak: false, ellipsis: true });
    x += column.width;
  });
}

function drawHeader(doc: Pdf, y: number): number {
  const height = 26;
  let x = margin;
  doc.font('bold').fontSize(8);
  for (const column of columns) {
    doc.rect(x, y, column.width, height).lineWidth(0.5).stroke();
    doc.text(column.title, x + cellPad, y + 3, { width: column.width - 2 * cellPad, align: 'center', height: height - 4 });
    x += column.width;
  }
  return y + height;
}

function drawAct(doc: Pdf, act: ActData): void {
  const bottom = a4Size.height - margin;
  let y = newPage(doc);
  doc.font('bold').fontSize(14).text('Акт приёма-передачи отправлений', margin, y, { width: contentWidth, align: 'center' });
  y += 19;
  doc.font('bold').fontSize(11).text(`№ ${act.number} от ${formatDate(act.date)}`, margin, y, { width: contentWidth, align: 'center' });
  y += 18;
  doc.font('body').fontSize(10);
  if (act.city) doc.text(`г. ${act.city}`, margin, y, { width: contentWidth, align: 'left' });
  doc.text(formatDate(act.date), margin, y, { width: contentWidth, align: 'right' });
  y += 22;

  const party = (title: string, lines: string[]) => {
    doc.font('bold').fontSize(10).text(title, margin, y, { continued: false, width: contentWidth });
    y += 13;
    doc.font('body').fontSize(9.5);
    for (const line of lines) {
      doc.text(line, margin, y, { width: contentWidth });
      y += doc.heightOfString(line, { width: contentWidth }) + 1;
    }
    y += 6;
  };
  party('Отправитель (Сдал):', [act.shop.name, ...act.shop.details]);
  party('Служба доставки (Принял):', [act.service]);

  y = drawHeader(doc, y);
  for (const [i, row] of act.rows.entries()) {
    if (y + rowHeight > bottom) y = drawHeader(doc, newPage(doc));
    drawRow(doc, [String(i + 1), row.clientNumber, row.providerNumber, String(row.places), formatWeight(row.weightGrams), formatAmount(row.assessedKopecks), formatAmount(row.codKopecks)], y, 'body');
    y += rowHeight;
  }
  const totals = actTotals(act.rows);
  if (y + rowHeight > bottom) y = drawHeader(doc, newPage(doc));
  drawRow(doc, ['', `Итого заказов: ${totals.orders}`, '', String(totals.places), formatWeight(totals.weightGrams), formatAmount(totals.assessedKopecks), formatAmount(totals.codKopecks)], y, 'bold');
  y += rowHeight + 12;

  // The closing statement and the signatures stay together on one page.
  const closingHeight = 190;
  if (y + closingHeight > bottom) y = newPage(doc);
  const statement = `Всего передано ${totals.orders} ${plural(totals.orders, 'заказ', 'заказа', 'заказов')}, ${totals.places} ${plural(totals.places, 'место', 'места', 'мест')}, общий вес ${formatWeight(totals.weightGrams)} кг. Отправления переданы в целости, упаковка не вскрыта и опломбирована; количество и маркировка отправлений соответствуют электронной заявке.`;
  doc.font('body').fontSize(9.5).text(statement, margin, y, { width: contentWidth });
  y += doc.heightOfString(statement, { width: contentWidth }) + 18;

  const half = (contentWidth - 10 * mm) / 2;
  signatureBlock(doc, 'Сдал (отправитель)', margin, y, half);
  signatureBlock(doc, 'Принял (служба доставки)', margin + half + 10 * mm, y, half);
}

function signatureBlock(doc: Pdf, title: string, x: number, y: number, width: number): void {
  doc.font('bold').fontSize(10).text(title, x, y, { width });
  let at = y + 20;
  for (const field of ['Должность', 'ФИО', 'Подпись', 'Дата']) {
    doc.font('body').fontSize(9).text(field, x, at, { width: 22 * mm, lineBreak: false });
    doc.moveTo(x + 22 * mm, at + 10).lineTo(x + width, at + 10).lineWidth(0.5).stroke();
    at += 24;
  }
  doc.font('body').fontSize(9).fillColor('#555555').text('М.П.', x, at + 4, { width });
  doc.fillColor('black');
}

/** Russian plural form for a count: 1 заказ, 2 заказа, 5 заказов. */
export function plural(n: number, one: string, few: string, many: string): string {
  const tens = n % 100;
  const units = n % 10;
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  if (units >= 2 && units <= 4) return few;
  return many;
}
