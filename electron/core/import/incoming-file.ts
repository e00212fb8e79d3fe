import { ErrorCode } from '../../../shared/errors';
import type { UploadRequest } from '../../../shared/schemas/upload';
import { AppError } from '../errors';
import { downloadFile, type FetchLike } from './download';
import { checkErrorsFileSize, FileProblem, inspectWorkbook, type WorkbookInfo } from './file-check';
import { fileProblemBody } from './import-failures';
import type { ImportOptions } from './import-options';

/** The file of an upload or of the wizard: base64 in the request, or downloaded from file.url. */

export function decodeBase64(text: string, field: string, maxFileBytes: number): Buffer {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new AppError(400, { code: ErrorCode.validation, message: 'Validation error', description: `${field}: must be base64`, errors: [{ field, message: 'must be base64' }] });
  if ((clean.length * 3) / 4 > maxFileBytes + 4) {
    throw new AppError(413, fileProblemBody(new FileProblem('too-large', `The file is larger than ${Math.round(maxFileBytes / 1024 / 1024)} MB, the largest workbook accepted.`)));
  }
  return Buffer.from(clean, 'base64');
}

export async function fileOf(request: UploadRequest, options: ImportOptions, fetch: FetchLike): Promise<{ bytes: Buffer; name?: string }> {
  if (request.file.base64 !== undefined) return { bytes: decodeBase64(request.file.base64, 'file.base64', options.maxFileBytes) };
  return downloadFile(request.file.url!, { fetch, timeoutMs: options.downloadTimeoutMs, maxBytes: options.maxFileBytes });
}

/**
 * What is checked of a file before it is stored or any order created: an xlsx workbook with a sheet to
 * read, within the limits (file-check.ts: sizes, bombs, parts), and small enough for its errors file
 * when one is asked. Throws FileProblem.
 */
export function checkIncomingFile(bytes: Buffer, options: ImportOptions, errorsToFile: boolean): WorkbookInfo {
  const info = inspectWorkbook(bytes, options);
  if (errorsToFile) checkErrorsFileSize(info.sheetXmlBytes, options);
  return info;
}

/** A refused file as the interface's 400; anything else as it is. */
export const asAppError = (error: unknown): unknown => (error instanceof FileProblem ? new AppError(400, fileProblemBody(error)) : error);
