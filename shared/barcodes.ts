/**
 * Barcodes of the delivery services' numbers, encoded by bwip-js (its platform-free build, so the core's
 * labels and the window's order screen draw the same symbols); each caller draws the bars its own way.
 */

import bwipjs from 'bwip-js/generic';

/** Bars of a Code 128 symbol: x offsets and widths in modules, and the symbol's total width in modules. */
export interface LinearBars {
  bars: { x: number; width: number }[];
  modules: number;
}

/** Dark cells of a 2D symbol in rows of runs (neighbouring dark cells merged), and its size in cells. */
export interface MatrixCells {
  runs: { x: number; y: number; width: number }[];
  columns: number;
  rows: number;
}

/** Whether Code 128 can carry the text: printable ASCII, not empty (services' numbers are). */
export const fitsCode128 = (text: string) => text !== '' && /^[\x20-\x7e]*$/.test(text);

/** Code 128 of the text (bwip-js picks code sets A/B/C itself); the text must fit (fitsCode128). */
export function code128(text: string): LinearBars {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text }) as unknown as { sbs: number[] }[];
  const bars: LinearBars['bars'] = [];
  let x = 0;
  symbol.sbs.forEach((width, i) => {
    if (i % 2 === 0) bars.push({ x, width });
    x += width;
  });
  return { bars, modules: x };
}

/** A DataMatrix symbol of the text (the 2D code services print beside the linear one). */
export function dataMatrix(text: string): MatrixCells {
  const [symbol] = bwipjs.raw({ bcid: 'datamatrix', text }) as unknown as { pixs: number[]; pixx: number; pixy: number }[];
  const runs: MatrixCells['runs'] = [];
  for (let y = 0; y < symbol.pixy; y++) {
    let start = -1;
    for (let x = 0; x <= symbol.pixx; x++) {
      const dark = x < symbol.pixx && symbol.pixs[y * symbol.pixx + x] === 1;
      if (dark && start < 0) start = x;
      if (!dark && start >= 0) {
        runs.push({ x: start, y, width: x - start });
        start = -1;
      }
    }
  }
  return { runs, columns: symbol.pixx, rows: symbol.pixy };
}
