import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';

/** The text of a PDF as pdftotext lays it out (table rows stay on their lines). */
export function pdfText(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-text-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A grey page image as pdftoppm draws it (PGM: a short text header, then one byte per pixel). */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

/** Renders one page of a PDF (1-based) the way a printer would see it, at the given resolution. */
export function renderPage(pdf: Uint8Array, page: number, dpi = 200): GreyImage {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-page-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', join(dir, 'in.pdf'), join(dir, 'page')]);
    return parsePgm(readFileSync(join(dir, 'page.pgm')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parsePgm(bytes: Buffer): GreyImage {
  // "P5\n<width> <height>\n<max>\n" then the pixels.
  const header: string[] = [];
  let at = 0;
  while (header.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[at]))) at++;
    let token = '';
    while (!/\s/.test(String.fromCharCode(bytes[at]))) token += String.fromCharCode(bytes[at++]);
    header.push(token);
  }
  at++;
  const [magic, width, height] = [header[0], Number(header[1]), Number(header[2])];
  if (magic !== 'P5') throw new Error(`not a binary PGM: ${magic}`);
  return { width, height, pixels: new Uint8ClampedArray(bytes.subarray(at, at + width * height)) };
}

/** The part of an image inside a rectangle given in fractions of its width and height. */
export function crop(image: GreyImage, area: { x: number; y: number; width: number; height: number }): GreyImage {
  const x0 = Math.round(area.x * image.width);
  const y0 = Math.round(area.y * image.height);
  const width = Math.round(area.width * image.width);
  const height = Math.round(area.height * image.height);
  const pixels = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++) pixels.set(image.pixels.subarray((y0 + y) * image.width + x0, (y0 + y) * image.width + x0 + width), y * width);
  return { width, height, pixels };
}

/** Decodes the one barcode of the given kind in the image (ZXing, as a scanner would), or null. */
export function decodeBarcode(image: GreyImage, kind: 'code128' | 'datamatrix'): string | null {
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [kind === 'code128' ? BarcodeFormat.CODE_128 : BarcodeFormat.DATA_MATRIX]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  try {
    return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(image.pixels, image.width, image.height)))).getText();
  } catch {
    return null;
  }
}
