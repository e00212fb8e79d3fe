/**
 * What the reading worker sends for each sheet row: plain values that survive structured cloning.
 * Formulas arrive as their cached result (the value Excel last computed and saved); a formula with no
 * saved result and an error value (#N/A, #DIV/0!) arrive as markers, refused only if a mapped column has one.
 */
export interface FormulaWithoutResult {
  formula: string;
}

export interface CellError {
  error: string;
}

export type CellValue = null | string | number | boolean | Date | FormulaWithoutResult | CellError;

export interface SheetRow {
  /** 1-based row number in the sheet. */
  row: number;
  /** cells[0] is column A; trailing empty cells are left off. */
  cells: CellValue[];
}

export const isFormulaWithoutResult = (v: CellValue): v is FormulaWithoutResult => typeof v === 'object' && v !== null && 'formula' in v;
export const isCellError = (v: CellValue): v is CellError => typeof v === 'object' && v !== null && 'error' in v;

export const isEmptyCell = (v: CellValue | undefined) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const pad = (n: number) => String(n).padStart(2, '0');

/** How a cell reads as text (preview, text fields, error messages). */
export function cellText(v: CellValue | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(15)));
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Date) {
    const date = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const seconds = Math.round(v.getTime() / 1000) % 86_400;
    if (seconds === 0) return date;
    const time = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}`;
    // a time-only cell is the Excel epoch day plus the time
    return v.getUTCFullYear() < 1900 ? time : `${date} ${time}`;
  }
  if (isFormulaWithoutResult(v)) return `=${v.formula}`;
  return v.error;
}
