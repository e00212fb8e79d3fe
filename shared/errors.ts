import type { MessageRef } from './messages';

/** Error codes of the interface (spec + wire conventions); one place so UI, API and core agree. */
export const ErrorCode = {
  general: '040000',
  validation: '040002',
  calculatorValidation: '040003',
  notUtf8: '040004',
  invalidFilter: '040010',
  fieldNotFilterable: '040011',
  unknownField: '040012',
  notFound: '040016',
  noStatuses: '040018',
  orderNotFound: '040080',
  alreadyCanceled: '040081',
  unauthorized: '040101',
  /** The caller is known but its role may not do this (a packer opening settings, an API token on /app). */
  forbidden: '040103',
  /** Too many failed sign-ins for the name or from the address: wait and try again. */
  tooManyAttempts: '040429',
  cannotCancel: '040306',
  internal: '050001',
  /** HTTP 507: the disk of the data folder is full, or the folder is read-only or gone; nothing was written. */
  storageFull: '050007',
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * `message` is the interface's English; `key` and `params` (shared/messages) say the same as data, so the window
 * and the errors file can say it in the person's language. The public API leaves them out (api/wire-body.ts).
 */
export interface FieldError {
  field: string;
  message: string;
  key?: string;
  params?: MessageRef['params'];
}

/** The interface's error body: six-digit code, message, optional description, moreInfo and field errors. */
export interface ErrorBody {
  code: string;
  message: string;
  description?: string;
  moreInfo?: string;
  errors?: FieldError[];
  /** The description as data (see FieldError); only on the app's own channel. */
  key?: string;
  params?: MessageRef['params'];
}
