import type { PrintFonts } from './fonts';

/** Points per millimetre (PDF user space is 1/72 inch). */
export const mm = 72 / 25.4;

export type Pdf = PDFKit.PDFDocument;

/**
 * A PDF with the shipped Cyrillic font registered as `body` and `bold`, and no page yet. PDFKit (and its font
 * engine) loads with the first PDF a shop prints, not with the app: a process that never prints keeps ~25 MB.
 */
export async function newPdf(fonts: PrintFonts, title: string): Promise<Pdf> {
  const { default: PDFKitDocument } = await import('pdfkit');
  const doc = new PDFKitDocument({ autoFirstPage: false, info: { Title: title, Producer: 'ShipDesk', Creator: 'ShipDesk' } });
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
