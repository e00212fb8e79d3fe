import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Cyrillic font shipped in resources/fonts (DejaVu Sans, its license beside it). */
export interface PrintFonts {
  regular: Buffer;
  bold: Buffer;
}

const loaded = new Map<string, PrintFonts>();

/** Reads the fonts once per resources folder; a missing font is an installation fault, said plainly. */
export function loadPrintFonts(resourcesDir: string): PrintFonts {
  let fonts = loaded.get(resourcesDir);
  if (!fonts) {
    const dir = join(resourcesDir, 'fonts');
    try {
      fonts = { regular: readFileSync(join(dir, 'DejaVuSans.ttf')), bold: readFileSync(join(dir, 'DejaVuSans-Bold.ttf')) };
    } catch (error) {
      throw new Error(`The label font is missing from ${dir} (reinstall the app): ${(error as Error).message}`);
    }
    loaded.set(resourcesDir, fonts);
  }
  return fonts;
}
