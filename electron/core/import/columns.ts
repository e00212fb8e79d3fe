/** Spreadsheet column letters ↔ 1-based numbers (A = 1, Z = 26, AA = 27, XFD = 16384, Excel's last). */

export const maxColumn = 16_384;

/** `AB` → 28; NaN for anything that is not 1–3 letters within XFD. */
export function columnNumber(letters: string): number {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return Number.NaN;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n <= maxColumn ? n : Number.NaN;
}

/** 28 → `AB`. */
export function columnLetters(n: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor((v - 1) / 26)) s = String.fromCharCode(65 + ((v - 1) % 26)) + s;
  return s;
}

/** `AB12` → { column: 28, row: 12 }; undefined for a malformed reference. */
export function parseCellRef(ref: string): { column: number; row: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!m) return undefined;
  const column = columnNumber(m[1]);
  return Number.isNaN(column) ? undefined : { column, row: Number(m[2]) };
}

/** `B3:D7` (or a single cell) → its corners. */
export function parseRange(ref: string): { top: number; left: number; bottom: number; right: number } | undefined {
  const [a, b = a] = ref.split(':');
  const from = parseCellRef(a);
  const to = parseCellRef(b);
  if (!from || !to) return undefined;
  return {
    top: Math.min(from.row, to.row),
    bottom: Math.max(from.row, to.row),
    left: Math.min(from.column, to.column),
    right: Math.max(from.column, to.column),
  };
}
