import { goneDatabaseOf, isStorageFailure } from './store/storage-errors';
import type { ZodError } from 'zod';
import { ErrorCode, type ErrorBody, type FieldError } from '../../shared/errors';
import { keyOfWireText, said, type MessageRef } from '../../shared/messages';
import { issueMessage } from '../../shared/messages/issues';

/** An error meant for the caller: it carries the interface's error body and the HTTP status to send it with. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.description ?? body.message);
    this.name = 'AppError';
  }
}

/** A field error with its key: a fixed text the catalog knows ('must be a number') gets it here, others bring theirs. */
export const keyedFieldError = (error: FieldError): FieldError => {
  if (error.key) return error;
  const key = keyOfWireText(error.message);
  return key ? { ...error, key } : error;
};

export const validationError = (errors: FieldError[], description?: string) =>
  new AppError(400, {
    code: ErrorCode.validation,
    message: 'Validation error',
    description: description ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors: errors.map(keyedFieldError),
  });

/** The body the interface sends: `message`, `description` and `errors[{field, message}]` without the app's keys. */
export function interfaceErrorBody(body: ErrorBody): ErrorBody {
  const { key: _key, params: _params, errors, ...rest } = body;
  return errors ? { ...rest, errors: errors.map(({ field, message }) => ({ field, message })) } : rest;
}

/** A description as the interface's English, or a catalog message (`said(key, params)`) the window says in its language. */
export type Description = string | ({ message: string } & MessageRef);
export const describedBy = (description: Description) =>
  typeof description === 'string' ? { description } : { description: description.message, key: description.key, ...(description.params && { params: description.params }) };

export const badRequest = (description: Description, code: string = ErrorCode.general) =>
  new AppError(400, { code, message: 'Bad request', ...describedBy(description) });

export const notFound = (description: Description, code: string = ErrorCode.notFound) =>
  new AppError(404, { code, message: 'Not found', ...describedBy(description) });

export const orderNotFound = (orderId: string | number) =>
  notFound(said('notFound.order', { orderId }), ErrorCode.orderNotFound);

export const unauthorized = (description = 'The Authorization header must carry a valid API token') =>
  new AppError(401, { code: ErrorCode.unauthorized, message: 'Unauthorized', description });

export const forbidden = (description: string) => new AppError(403, { code: ErrorCode.forbidden, message: 'Forbidden', description });

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError(429, {
    code: ErrorCode.tooManyAttempts,
    message: 'Too many attempts',
    ...describedBy(said('auth.tooManyAttempts', { minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) })),
  });

/** The disk is full or the data folder cannot be written (store/storage-errors.ts): reads go on, writes wait for space. */
export const storageFullError = () =>
  new AppError(507, {
    code: ErrorCode.storageFull,
    message: 'Insufficient storage',
    description: 'The disk of the ShipDesk data folder is full or cannot be written; nothing was changed. Free some space and try again: ShipDesk carries on by itself.',
  });

/**
 * The open database file was deleted or replaced, or its folder removed or renamed (store/database-file-watch.ts):
 * writes are refused until the same file is back; reads answer from what is open.
 */
export const databaseGoneError = (file: string) =>
  new AppError(507, { code: ErrorCode.storageFull, message: 'Insufficient storage', ...describedBy(said('storage.databaseGone', { file })) });

/** An unexpected error as the caller sees it: 507 when the disk or data folder failed, else 500. */
export const unexpectedError = (error: unknown) => {
  const gone = goneDatabaseOf(error);
  if (gone !== null) return databaseGoneError(gone);
  return isStorageFailure(error) ? storageFullError() : internalError();
};

export const internalError = () =>
  new AppError(500, { code: ErrorCode.internal, message: 'Internal error', description: 'Something went wrong on our side; nothing was changed' });

const valueAt = (root: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined), root);

/**
 * Field errors from a zod error, with dotted paths as the interface names fields (`places.0.items.0.quantity`).
 * A field that is absent from the input is reported as "is required", whatever the schema's wording.
 */
export function fieldErrors(error: ZodError, input?: unknown): FieldError[] {
  return error.issues.map((issue) => {
    const absent = issue.path.length > 0 && issue.code !== 'custom' && valueAt(input, issue.path) == null; // null = not given (nullsAsMissing)
    const field = issue.path.map(String).join('.') || '(body)';
    return { field, ...issueMessage(issue, absent) };
  });
}
