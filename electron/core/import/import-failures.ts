import type { ErrorBody } from '../../../shared/errors';
import { said } from '../../../shared/messages';
import { ErrorCode } from '../../../shared/errors';
import type { UploadFailedItem } from '../../../shared/schemas/upload';
import type { FileProblem } from './file-check';
import type { RowFieldError } from './row-mapper';

/** How an import tells what went wrong: a whole file refused, or one order of it. */

/** The body of a refused file. */
export const fileProblemBody = (problem: FileProblem): ErrorBody => ({
  code: ErrorCode.general,
  message: 'Bad file',
  description: problem.message,
  errors: [{ field: problem.kind === 'download' ? 'file.url' : 'file', message: problem.message }],
  ...(problem.key && { key: problem.key }),
});

/** One order of the file (its rows) and what became of it. */
export interface Entry {
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  failure?: StoredFailure;
  orderId?: number;
  created?: number;
  /** The draft it became (an import into drafts). */
  draftId?: string;
}

/** What import_rows.error holds: the result item's fields, and each error's sheet row. */
export interface StoredFailure {
  code: string;
  message: string;
  description: string;
  moreInfo: string;
  errors: RowFieldError[];
}

export function rowsText(sheetName: string, row: number, lastRow: number) {
  return `Sheet «${sheetName}», ${lastRow > row ? `rows ${row}–${lastRow}` : `row ${row}`}`;
}

export function failureOf(errors: RowFieldError[], where: string): StoredFailure {
  return {
    code: ErrorCode.validation,
    message: 'Validation error',
    description: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    moreInfo: where,
    errors,
  };
}

/** Why an order of a canceled import was not created. */
export const canceledFailure = (sheetName: string, e: { row: number; lastRow: number }): StoredFailure => ({
  code: ErrorCode.general,
  message: 'Not imported',
  description: 'The import was canceled before this order was created', // import.canceledRow in the errors file
  moreInfo: rowsText(sheetName, e.row, e.lastRow),
  errors: [],
});

export const duplicateErrors = (c: { clientNumber: string; row: number }, existing: number): RowFieldError[] => [
  {
    field: 'order.clientNumber',
    ...said('import.orderExists', { number: c.clientNumber, orderId: existing }),
    row: c.row,
  },
];

/** A failed row as the interface answers it; `withKeys` (the app's own check) keeps each error's key for the window. */
export const toResultFailure = (clientNumber: string, row: number, f: StoredFailure, withKeys = false): UploadFailedItem => ({
  clientNumber,
  row,
  code: f.code,
  message: f.message,
  description: f.description,
  moreInfo: f.moreInfo,
  errors: f.errors.map(({ field, message, key, params }) => (withKeys && key ? { field, message, key, ...(params && { params }) } : { field, message })),
});
