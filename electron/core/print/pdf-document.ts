import PDFDocument from 'pdfkit';
import type { PrintFonts } from './fonts';

/** Points per millimetre (PDF user space is 1/72 inch). */
export const mm = 72 / 25.4;

export type Pdf = PDFKit.PDFDocument;

/** A PDF with the shipped Cyrillic font registered as `body` and `bold`, and no page yet. */
export function newPdf(fonts: PrintFonts, title: string): Pdf {
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: title, Producer: 'ShipDesk', Creator: 'ShipDesk' } });
  doc.registerFont('body', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  return doc;
}

/** Ends the document and gives its bytes. */
export function pdfBytes(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
