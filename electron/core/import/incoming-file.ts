import { ErrorCode } from '../../../shared/errors';
import type { UploadRequest } from '../../../shared/schemas/upload';
import { AppError } from '../errors';
import { takeHeldBytes } from '../held-bytes';
import { downloadFile, type FetchLike } from './download';
import { checkErrorsFileParts, FileProblem, inspectWorkbook, type WorkbookInfo } from './file-check';
import { fileProblemBody } from './import-failures';
import type { ImportOptions } from './import-options';
import { yieldToEventLoop } from './import-store';

/** The file of an upload or of the wizard: base64 in the request, or downloaded from file.url. */

/**
 * Characters of base64 decoded between two turns of the event loop. A 40 MB body decoded at once held
 * the main thread (and every other caller) for a second; a slice is a millisecond or two of work.
 */
const decodeSliceChars = 512 * 1024;
const base64Slice = /^[A-Za-z0-9+/_-]*={0,2}$/;
const whitespace = /\s+/g;

/**
 * The bytes of a base64 text (line breaks and spaces allowed, the URL-safe alphabet too), decoded slice by
 * slice into one buffer, yielding between slices. 400 when it is not base64, 413 past `maxFileBytes`.
 */
export async function decodeBase64(text: string, field: string, maxFileBytes: number): Promise<Buffer> {
  const notBase64 = () => new AppError(400, { code: ErrorCode.validation, message: 'Validation error', description: `${field}: must be base64`, errors: [{ field, message: 'must be base64' }] });
  const tooLarge = () => new AppError(413, fileProblemBody(new FileProblem('too-large', `The file is larger than ${Math.round(maxFileBytes / 1024 / 1024)} MB, the largest workbook accepted.`, 'import.problem.tooLarge')));
  const held = takeHeldBytes(text); // decoded already, off the main thread (held-bytes.ts)
  if (held) {
    if (held.length > maxFileBytes + 4) throw tooLarge(); // where the slices below stop too
    return held;
  }
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  const out = Buffer.allocUnsafe(Math.min(Math.ceil((end * 3) / 4), maxFileBytes + 4));
  let written = 0;
  let carry = ''; // the characters past the last whole group of four, decoded with the next slice
  for (let at = 0; at < end; at += decodeSliceChars) {
    const last = at + decodeSliceChars >= end;
    let part = carry + text.slice(at, Math.min(end, at + decodeSliceChars)).replace(whitespace, '');
    if (!base64Slice.test(part) || (!last && part.includes('='))) throw notBase64(); // padding only at the very end
    if (!last) {
      const whole = part.length - (part.length % 4);
      carry = part.slice(whole);
      part = part.slice(0, whole);
    }
    if (written + Math.floor((part.length * 3) / 4) - (part.endsWith('==') ? 2 : part.endsWith('=') ? 1 : 0) > out.length) throw tooLarge();
    written += out.write(part, written, 'base64');
    if (!last) await yieldToEventLoop();
  }
  return out.subarray(0, written);
}

export async function fileOf(request: UploadRequest, options: ImportOptions, fetch: FetchLike): Promise<{ bytes: Buffer; name?: string }> {
  if (request.file.base64 !== undefined) return { bytes: await decodeBase64(request.file.base64, 'file.base64', options.maxFileBytes) };
  return downloadFile(request.file.url!, { fetch, timeoutMs: options.downloadTimeoutMs, maxBytes: options.maxFileBytes });
}

/**
 * What is checked of a file before it is stored or any order created: an xlsx workbook with a sheet to
 * read, within the limits (file-check.ts: sizes, bombs, parts), and with parts small enough for its errors
 * file when one is asked. Throws FileProblem.
 */
export function checkIncomingFile(bytes: Buffer, options: ImportOptions, errorsToFile: boolean): WorkbookInfo {
  const info = inspectWorkbook(bytes, options);
  if (errorsToFile) checkErrorsFileParts(info);
  return info;
}

/** A refused file as the interface's 400; anything else as it is. */
export const asAppError = (error: unknown): unknown => (error instanceof FileProblem ? new AppError(400, fileProblemBody(error)) : error);
