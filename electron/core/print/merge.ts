
/** PDFs one after another as one document (a day's labels print in one go). */
export async function mergePdfs(parts: Uint8Array[]): Promise<Uint8Array> {
  if (parts.length === 1) return parts[0];
  const { PDFDocument } = await import('pdf-lib'); // with the first merged job, not with the app
  const merged = await PDFDocument.create();
  for (const part of parts) {
    const source = await PDFDocument.load(part);
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  return merged.save();
}

/** ZPL streams one after another (each is a run of ^XA … ^XZ blocks). */
export function joinZpl(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

/** A print job's outcome as the window's commands answer it (the file inline, in base64). */
export function printedFileAnswer(outcome: { file: { bytes: Uint8Array; fileName: string; contentType: string } | null; printed: number; failedOrders: { orderId: string; message: string }[] }) {
  return {
    fileName: outcome.file?.fileName ?? '',
    contentType: outcome.file?.contentType ?? '',
    base64: outcome.file ? Buffer.from(outcome.file.bytes).toString('base64') : null,
    orders: outcome.printed,
    failedOrders: outcome.failedOrders,
  };
}
