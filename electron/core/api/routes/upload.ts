import { z } from 'zod';
import { said } from '../../../../shared/messages';
import { ErrorCode } from '../../../../shared/errors';
import { uploadRequestSchema, uploadResponseSchema, uploadStateSchema } from '../../../../shared/schemas/upload';
import { notFound } from '../../errors';
import { bodyRows, unauthorizedRow, validationRow } from '../openapi/operations';
import { UPLOAD_BODY_LIMIT } from '../body-limits';
import { defineRoute, type Route } from '../route';
import { maxColumn } from '../../import/columns';
import { MAX_DOWNLOAD_REDIRECTS } from '../../import/download';
import { maxSmallPartBytes } from '../../import/file-check';
import { defaultImportOptions } from '../../import/import-options';
import { readWindowBytes } from '../../import/read-orders';
import { maxBatchBytes, maxPendingXmlChars } from '../../import/sheet-reader';

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const o = defaultImportOptions;

/** The limits an upload is held to, from the constants that enforce them. */
const uploadLimitsDoc = [
  '- Limits (each crossing is 400 040000 "Bad file" naming the limit, before any order is created, unless said otherwise):',
  `  - the file at most ${mb(o.maxFileBytes)} (maxFileBytes; 413), its parts at most ${mb(o.maxUncompressedBytes)} unpacked in all (maxUncompressedBytes), at most ${o.maxEntries.toLocaleString('en')} parts (maxEntries); a part over ${mb(o.bombEntryBytes)} packed more than ${o.maxRatio}:1 is a zip bomb (bombEntryBytes, maxRatio), and so is a sheet that unpacks past the size its archive declares;`,
  `  - at most ${o.maxDataRows.toLocaleString('en')} data rows from rowStart (maxDataRows; set rowEnd to read part of a larger sheet); no cell beyond column XFD (${maxColumn.toLocaleString('en')}); only the mapped columns' cells are read, so stray cells far right cost nothing; at most ${mb(maxPendingXmlChars)} of sheet text without a tag end (maxPendingXmlChars);`,
  `  - with \`errorsToFile\`, the workbook's formatting (xl/styles.xml) at most ${mb(maxSmallPartBytes)} unpacked (maxSmallPartBytes), as workbook.xml and its relations always: the errors file rewrites that part whole (the sheet itself is streamed, whatever its size), so a larger one is refused up front — without errorsToFile every failed row is still reported in resultItems. The errors file's texts (its column title, the messages the app has words for) are in the app's language (Settings → language);`,
  `  - a read takes at most ${o.readTimeoutMs / 60_000} min (readTimeoutMs) and ${o.workerHeapMb} MB of memory in its worker (workerHeapMb); rows travel to the main thread in batches of at most ${mb(maxBatchBytes)}, at most ${mb(readWindowBytes)} of them unprocessed at a time (readWindowBytes);`,
  `  - \`file.url\`: http or https to a public internet address only (loopback, private and link-local addresses only when the owner allows them: Settings → Local API, allowLocalDownloads), every address the name resolves to checked, at most ${MAX_DOWNLOAD_REDIRECTS} redirects each checked again (MAX_DOWNLOAD_REDIRECTS), the download stopped as it passes maxFileBytes or after ${o.downloadTimeoutMs / 1000} s (downloadTimeoutMs), each 400 "Bad file" like a file that cannot be read; a refusal says what is wrong with the link, never what answered there;`,
  `  - the file is checked (a workbook, its sheet, the limits above) before it is stored; stored files are kept in the data folder, ${o.sourceRetentionDays} days, at most ${mb(o.maxKeptSourceBytesPerCompany)} per company (maxKeptSourceBytesPerCompany: the oldest finished imports' files make room first; past it 413 040000 "Too many files kept").`,
  '- After a crash, an upload left under way is taken up again when the app starts, after its last recorded order: it ends `done` with every row created or reported (or `failed`, saying how far it got, when its file is gone).',
].join('\n');


const pagingSchema = z.object({
  offset: z.preprocess((v) => (v === null || v === '' ? undefined : v), z.coerce.number().int().min(0).optional()),
  limit: z.preprocess((v) => (v === null || v === '' ? undefined : v), z.coerce.number().int().min(1).max(20_000).optional()),
});

/**
 * POST /orders/upload (orders from a spreadsheet, sync or async) and our GET /orders/upload/{uploadId}
 * (the state and results of an upload, async ones in particular).
 */
export const uploadRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/orders/upload',
    bodyLimit: UPLOAD_BODY_LIMIT,
    bodyFile: 'file.base64',
    body: uploadRequestSchema,
    answer: uploadResponseSchema,
    doc: {
      id: 'uploadOrders',
      tag: 'Upload',
      summary: 'Create orders from a spreadsheet',
      summaryRu: 'Загрузка заказов из файла xlsx',
      description: [
        'Reads an xlsx workbook (`file.base64`, or `file.url` over http(s)) with `columnMap` (field → column letter) and `columnSettings`, and creates an order per clientNumber with the rules of POST /orders. The body may be up to 48 MiB; the file up to 30 MB.',
        '- The settings are checked first (040002, the file is not even fetched); the top-level `providerKey` must name a delivery service (GET /lists/providers). A row whose own `order.providerKey` (column or `defaultData`) names another service keeps its own: the top-level key is the default for rows that name none. A file that cannot be read (not a workbook, damaged, .xls, protected, merged cells in the data, no rows…) is 400 040000 "Bad file" and creates nothing; `errors[0].field` is `file` or `file.url`.',
        '- A readable file creates its valid orders; each failed order is a result item with `code` 040002, `message`, `description`, `moreInfo` and `errors[{ field, message }]`. A clientNumber that already exists is reported, never imported twice.',
        '- `mode: sync` (default) answers `{ resultItems, base64 }` once every order is written, waiting a bounded time (10 s) for the services\' numbers when the file has at most 500 orders (`providerNumber` null until then, and for larger files, whose numbers follow through GET /orders/{orderId}/status; `status` shows where each order stands, ours). `mode: async` answers at once with the upload\'s state (`uploadId`, status `queued`); GET /orders/upload/{uploadId} gives progress and results.',
        '- `errorsToFile`: the failed rows are marked in a copy of the workbook, returned as `base64` (null when nothing failed).',
        '- `columnSettings.dateFormat` / `timeFormat` use PHP `date()` tokens (`d.m.Y`, `H:i`); `nameFormat: true` takes a name from several columns (`"I,AA,AB"`); `itemsNewRow: false` reads item rows under their order row. `defaultData` fills fields without a column; `sumByOrderRows(<column>)` sums a column over the order\'s rows. Booleans may be true/false or 1/0; nested `columnMap` objects equal dotted keys.',
        '- `orderId` in result items is a number (as the interface document types it there).',
        uploadLimitsDoc,
      ].join('\n'),
      formats: ['json', 'xml'],
      body: {
        name: 'UploadRequest',
        description: 'The file and how to read it.',
        example: {
          providerKey: 'sandbox-express',
          mode: 'sync',
          errorsToFile: true,
          file: { base64: 'UEsDBBQAAAAIA…' },
          columnSettings: { timeFormat: 'H:i', dateFormat: 'd.m.Y', nameFormat: false, itemsNewRow: true, rowStart: 2 },
          columnMap: { 'order.clientNumber': 'A', 'order.weight': 'B', 'recipient.contactName': 'C' },
          defaultData: { 'order.pickupType': '1' },
        },
      },
      answer: { name: 'UploadResponse', description: 'mode sync: one result item per order (created or failed).' },
      alternatives: [{ name: 'UploadState', schema: uploadStateSchema, description: 'mode async: the upload\'s state, status queued.' }],
      errors: [
        unauthorizedRow,
        validationRow('The settings are wrong (unknown fields, bad column letters, a required field with neither a column nor defaultData, file.url not http(s), file.base64 not base64…).'),
        { status: 400, code: ErrorCode.general, when: 'The file cannot be read or downloaded ("Bad file", errors[0].field `file` or `file.url`).' },
        { status: 413, code: ErrorCode.general, when: 'The body is over 48 MiB, or the file over 30 MB, or the company keeps too many import files ("Too many files kept").' },
        ...bodyRows.filter((r) => r.status !== 413),
      ],
    },
    handler: (req, app) => app.services.imports.upload(req.ctx, req.body),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/upload/:uploadId',
    params: z.object({ uploadId: z.string() }),
    // An id that is not a positive whole number names no upload: 404 before the paging is read.
    before: async (req) => {
      if (!/^[1-9]\d{0,14}$/.test(req.params.uploadId)) throw notFound(said('notFound.upload', { id: req.params.uploadId }));
    },
    query: pagingSchema,
    answer: uploadStateSchema,
    doc: {
      id: 'getUpload',
      tag: 'Upload',
      summary: 'State and results of an upload (ours)',
      summaryRu: 'Состояние загрузки',
      description: [
        'Ours: the progress and results of an upload, asynchronous ones in particular. `status`: queued, reading, creating, registering, done, failed or canceled; `done` of `total`, `created`, `failed`; `resultItems` so far (paged with `offset` / `limit`; all when absent); `base64` the errors file; `error` why the whole file failed (an error body), else null.',
        'Uploads are kept 30 days (their files 7); another company\'s upload is not found.',
      ].join('\n\n'),
      params: {
        uploadId: { description: 'The `uploadId` of an asynchronous upload.', example: '7' },
        offset: { description: 'Result items to skip, 0 or more.' },
        limit: { description: 'Result items to return, 1 to 20000; all when absent.' },
      },
      formats: ['json', 'xml'],
      answer: { name: 'UploadState', description: 'The upload\'s state.' },
      errors: [
        unauthorizedRow,
        { status: 404, code: ErrorCode.notFound, when: 'No such upload of the company (or the id is not a positive whole number).' },
        validationRow('`offset` / `limit` out of bounds.'),
      ],
    },
    handler: (req, app) => app.services.imports.state(req.ctx, Number(req.params.uploadId), req.query),
  }),
];
