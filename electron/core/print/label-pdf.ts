import type { code128, dataMatrix } from '../../../shared/barcodes';
import { formatKilograms, formatRubles } from './format';
import type { PrintFonts } from './fonts';
import type { LabelData } from './label';
import { mm, newPdf, pdfBytes, type Pdf } from './pdf-document';

/** Where labels go: a 100×150 mm thermal label each, or four A6 labels to an A4 sheet. */
export type LabelLayout = { kind: 'thermal' } | { kind: 'a4'; startQuarter: 1 | 2 | 3 | 4 };

export const thermalSize = { width: 100 * mm, height: 150 * mm };
export const a4Size = { width: 210 * mm, height: 297 * mm };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * All labels in one PDF, in the given order. On A4 the first label goes to the chosen quarter
 * (1 top left, 2 top right, 3 bottom left, 4 bottom right), so a half-used sheet is finished first.
 */
export async function labelsPdf(labels: LabelData[], layout: LabelLayout, fonts: PrintFonts): Promise<Buffer> {
  // bwip-js loads with the first label drawn, like PDFKit (pdf-document.ts)
  const barcodes: Barcodes = await import('../../../shared/barcodes');
  const doc = await newPdf(fonts, labels.length === 1 ? `Этикетка ${labels[0].providerNumber}` : `Этикетки (${labels.length})`);
  if (layout.kind === 'thermal') {
    for (const label of labels) {
      doc.addPage({ size: [thermalSize.width, thermalSize.height], margin: 0 });
      drawLabel(doc, barcodes, label, { x: 0, y: 0, ...thermalSize });
    }
  } else {
    const quarter = { width: a4Size.width / 2, height: a4Size.height / 2 };
    let slot = layout.startQuarter - 1;
    for (const [i, label] of labels.entries()) {
      if (i === 0 || slot === 4) {
        doc.addPage({ size: [a4Size.width, a4Size.height], margin: 0 });
        if (i > 0) slot = 0;
      }
      drawLabel(doc, barcodes, label, { x: (slot % 2) * quarter.width, y: Math.floor(slot / 2) * quarter.height, ...quarter });
      slot++;
    }
  }
  return pdfBytes(doc);
}

const grey = '#555555';

interface Barcodes {
  code128: typeof code128;
  dataMatrix: typeof dataMatrix;
}

/** One label inside the box; sized for 100×150 mm and A6 alike (both about 100 mm wide). */
function drawLabel(doc: Pdf, barcodes: Barcodes, label: LabelData, box: Box): void {
  const pad = 4 * mm;
  const left = box.x + pad;
  const width = box.width - 2 * pad;
  const bottom = box.y + box.height - pad;
  let y = box.y + pad;

  const caption = (text: string, x: number, at: number, w = width) => {
    doc.font('body').fontSize(7).fillColor(grey).text(text, x, at, { width: w, lineBreak: false, ellipsis: true });
    doc.fillColor('black');
    return at + 9;
  };
  const line = (at: number) => {
    doc.moveTo(left, at).lineTo(left + width, at).lineWidth(0.8).strokeColor('black').stroke();
    return at + 2 * mm;
  };

  // Service and tariff on the left, place N of M on the right: the first things sorted by.
  const placeWidth = 26 * mm;
  // A long service name steps down a size before it is cut short.
  const serviceWidth = width - placeWidth;
  doc.font('bold').fontSize(15);
  if (doc.widthOfString(label.service) > serviceWidth) doc.fontSize(12);
  doc.text(label.service, left, y, { width: serviceWidth, height: 19, ellipsis: true, lineBreak: false });
  if (label.tariff) doc.font('body').fontSize(8).text(label.tariff, left, y + 19, { width: width - placeWidth, height: 10, ellipsis: true, lineBreak: false });
  caption('Место', left + width - placeWidth, y, placeWidth);
  doc.font('bold').fontSize(16).text(`${label.place} из ${label.places}`, left + width - placeWidth, y + 8, { width: placeWidth, align: 'right', lineBreak: false });
  y = line(y + 31);

  // The service's number as Code 128, quiet zones included in the width.
  const bars = barcodes.code128(label.providerNumber);
  const quiet = 10;
  const module = Math.min(width / (bars.modules + 2 * quiet), 0.6 * mm);
  const barsLeft = left + (width - bars.modules * module) / 2;
  const barHeight = 22 * mm;
  for (const bar of bars.bars) doc.rect(barsLeft + bar.x * module, y, bar.width * module, barHeight);
  doc.fill('black');
  y += barHeight + 1.5 * mm;
  doc.font('bold').fontSize(13).text(label.providerNumber, left, y, { width, align: 'center', lineBreak: false, ellipsis: true });
  y = line(y + 17);

  // Recipient: name, phone, and where the parcel goes (the pickup point, or the door).
  y = caption(label.point ? 'Получатель · пункт выдачи' : 'Получатель', left, y);
  doc.font('bold').fontSize(12).text(label.recipient.name, left, y, { width, height: 15, ellipsis: true, lineBreak: false });
  y += 15;
  doc.font('body').fontSize(11).text(label.recipient.phone, left, y, { width, lineBreak: false });
  y += 14;
  const where = label.point ? `Пункт ${label.point.code}: ${label.point.address}` : label.recipient.address;
  doc.font('body').fontSize(10);
  const whereHeight = Math.min(doc.heightOfString(where, { width }), 3 * 12.5);
  doc.text(where, left, y, { width, height: whereHeight, ellipsis: true });
  y = line(y + whereHeight + 1.5 * mm);

  // The shop's number and the place's weight side by side; cash on delivery, when due, stands out.
  const half = width / 2;
  caption('Заказ магазина', left, y, half);
  caption('Вес места', left + half, y, half);
  y += 9;
  doc.font('bold').fontSize(12).text(label.clientNumber, left, y, { width: half - 2 * mm, height: 15, ellipsis: true, lineBreak: false });
  doc.font('bold').fontSize(12).text(formatKilograms(label.weightGrams), left + half, y, { width: half, lineBreak: false });
  y += 18;
  if (label.codKopecks > 0) {
    doc.rect(left, y, width, 20).fill('black');
    doc.font('bold').fontSize(12).fillColor('white').text(`Наложенный платёж: ${formatRubles(label.codKopecks)}`, left + 2 * mm, y + 4, { width: width - 4 * mm, lineBreak: false, ellipsis: true });
    doc.fillColor('black');
    y += 20;
  }

  // Sender at the bottom left, the 2D code of the service's number at the bottom right.
  const codeSize = 18 * mm;
  const matrix = barcodes.dataMatrix(label.providerNumber);
  const cell = codeSize / Math.max(matrix.columns, matrix.rows);
  const codeLeft = left + width - matrix.columns * cell;
  const codeTop = bottom - matrix.rows * cell;
  for (const run of matrix.runs) doc.rect(codeLeft + run.x * cell, codeTop + run.y * cell, run.width * cell, cell);
  doc.fill('black');
  const senderWidth = width - codeSize - 3 * mm;
  const senderTop = Math.max(y + 2 * mm, bottom - codeSize);
  caption('Отправитель', left, senderTop, senderWidth);
  doc.font('body').fontSize(8).text(label.sender, left, senderTop + 9, { width: senderWidth, height: bottom - senderTop - 9, ellipsis: true });
}
