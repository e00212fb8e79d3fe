import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { code128, dataMatrix, fitsCode128 } from './barcodes';

/** Paints cells (x, y, width in modules) into a grey image with a quiet zone and lets ZXing read it, as a scanner would. */
function scan(runs: { x: number; y: number; width: number }[], columns: number, rows: number, format: BarcodeFormat): string {
  const scale = 4;
  const quiet = 10;
  const width = (columns + 2 * quiet) * scale;
  const height = (rows + 2 * quiet) * scale;
  const pixels = new Uint8ClampedArray(width * height).fill(255);
  for (const run of runs)
    for (let y = (run.y + quiet) * scale; y < (run.y + quiet + 1) * scale; y++) pixels.fill(0, y * width + (run.x + quiet) * scale, y * width + (run.x + quiet + run.width) * scale);
  const reader = new MultiFormatReader();
  reader.setHints(new Map<DecodeHintType, unknown>([[DecodeHintType.POSSIBLE_FORMATS, [format]], [DecodeHintType.PURE_BARCODE, format === BarcodeFormat.DATA_MATRIX]]));
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, width, height)))).getText();
}

describe('barcodes of the services\' numbers', () => {
  it.each(['1234567890', 'SBX-000123456789', '10000123456', 'CDEK 42/1'])('Code 128 of %s scans back to it', (text) => {
    const symbol = code128(text);
    // Bars repeated over 20 rows make the linear symbol.
    const runs = Array.from({ length: 20 }, (_, y) => symbol.bars.map((b) => ({ x: b.x, y, width: b.width }))).flat();
    expect(scan(runs, symbol.modules, 20, BarcodeFormat.CODE_128)).toBe(text);
  });

  it('a long run of digits is packed in pairs (code set C), so the symbol stays short enough for a label', () => {
    expect(code128('12345678901234').modules).toBeLessThan(code128('ABCDEFGHIJKLMN').modules);
  });

  it('the DataMatrix of a number scans back to it', () => {
    const symbol = dataMatrix('SBX-000123456789');
    expect(scan(symbol.runs, symbol.columns, symbol.rows, BarcodeFormat.DATA_MATRIX)).toBe('SBX-000123456789');
  });

  it('text Code 128 cannot carry is refused before drawing (the screen shows it as text only)', () => {
    expect(fitsCode128('')).toBe(false);
    expect(fitsCode128('Заказ-1')).toBe(false);
    expect(fitsCode128('ORDER-1')).toBe(true);
  });
});
