import { z } from 'zod';
import { booleanLike, numberLike, text } from './primitives';

/**
 * POST /orders/upload: orders from a spreadsheet. XML bodies carry every value as text and empty
 * elements as '', so blanks count as absent and numbers/booleans are accepted as text (`1`/`0`).
 */

const blank = (v: unknown) => v === '' || v === null;
const optional = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());

const wholeNumber = numberLike.pipe(z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_048_576, 'is past Excel\'s last row'));

const maxKeyDepth = 8;

/** `{ order: { weight: 'B' } }` and `{ 'order.weight': 'B' }` are the same map: nested objects are flattened to dotted keys. */
function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}, depth = 0): Record<string, unknown> {
  // Real keys are at most three levels deep (extraParams.x); deeper nesting is left as an object for
  // the value schema to refuse, so a hostile body cannot exhaust the stack.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth >= maxKeyDepth) {
    if (prefix) out[prefix] = value;
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
  return out;
}

const flatRecord = <S extends z.ZodType>(values: S) =>
  z.preprocess((v) => (blank(v) ? {} : typeof v === 'object' && v !== null && !Array.isArray(v) ? flatten(v) : v), z.record(z.string().min(1).max(150), values));

export const columnSettingsSchema = z.object({
  /** PHP date() format of date cells (d.m.Y when absent); native Excel dates are read as they are. */
  dateFormat: optional(z.string().trim().max(50)),
  /** PHP date() format of time cells, such as H:i. */
  timeFormat: z.string({ error: 'is required' }).trim().min(1, 'is required').max(50),
  /** true/1: a name's parts are in separate columns (`recipient.contactName: "I,AA,AB"`); false/0: one column. */
  nameFormat: booleanLike,
  /** true/1: every item row repeats the order's data; false/0: item rows sit under the order's row. */
  itemsNewRow: booleanLike,
  /** First row of data (the row after the header row); 2 when absent. */
  rowStart: optional(wholeNumber),
  /** Last row read; the sheet's last row when absent. */
  rowEnd: optional(wholeNumber),
});

export const columnMapSchema = flatRecord(z.string({ error: 'must be a column letter such as A or AB' }).trim().max(400));

export const defaultDataSchema = flatRecord(
  z.union([z.string().max(1000), z.number().transform(String), z.boolean().transform((b) => (b ? '1' : '0'))], { error: 'must be text' }),
);

/** What says how to read the table: the same for POST /orders/upload and the desktop import wizard. */
export const uploadSettingsSchema = z.object({
  providerKey: text(50),
  columnSettings: columnSettingsSchema,
  columnMap: columnMapSchema,
  defaultData: optional(defaultDataSchema),
});
export type UploadSettingsInput = z.input<typeof uploadSettingsSchema>;
export type UploadSettings = z.output<typeof uploadSettingsSchema>;

export const uploadFileSchema = z
  .object({
    url: optional(z.string().trim().max(2000)),
    base64: optional(z.string()),
    type: optional(z.string().trim().toLowerCase()),
  })
  .superRefine((f, ctx) => {
    if (f.url === undefined && f.base64 === undefined) ctx.addIssue({ code: 'custom', path: ['base64'], message: 'is required: give file.base64 or file.url' });
    if (f.url !== undefined && f.base64 !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'give file.url or file.base64, not both' });
    if (f.type !== undefined && f.type !== 'xlsx') ctx.addIssue({ code: 'custom', path: ['type'], message: 'only xlsx files are accepted' });
    if (f.url !== undefined && !/^https?:\/\//i.test(f.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an http:// or https:// link' });
  });

export const uploadModes = ['sync', 'async'] as const;

export const uploadRequestSchema = uploadSettingsSchema.extend({
  mode: optional(z.enum(uploadModes, { error: 'must be sync or async' })).transform((m) => m ?? 'sync'),
  errorsToFile: optional(booleanLike).transform((b) => b ?? false),
  file: uploadFileSchema,
});
export type UploadRequestInput = z.input<typeof uploadRequestSchema>;
export type UploadRequest = z.output<typeof uploadRequestSchema>;

/** A row that became an order. */
export const uploadCreatedItemSchema = z.object({
  clientNumber: z.string(),
  row: z.number(),
  orderId: z.number(),
  /** The delivery service's number; null until it answers (sync mode waits a bounded time). */
  providerNumber: z.string().nullable(),
  created: z.string(),
  /** Our extension: the order's status when the answer was written (uploading, uploaded, uploadingError). */
  status: z.string().optional(),
});

/** A row that did not become an order, with the reasons. */
export const uploadFailedItemSchema = z.object({
  clientNumber: z.string(),
  row: z.number(),
  code: z.string(),
  message: z.string(),
  description: z.string(),
  moreInfo: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});

/** A row the desktop wizard kept as a draft to check (import.run with target drafts); never an API answer. */
export const uploadDraftItemSchema = z.object({
  clientNumber: z.string(),
  row: z.number(),
  draftId: z.string(),
  created: z.string(),
});

export const uploadResultItemSchema = z.union([uploadCreatedItemSchema, uploadFailedItemSchema, uploadDraftItemSchema]);
export type UploadResultItem = z.output<typeof uploadResultItemSchema>;
export type UploadCreatedItem = z.output<typeof uploadCreatedItemSchema>;
export type UploadFailedItem = z.output<typeof uploadFailedItemSchema>;
export type UploadDraftItem = z.output<typeof uploadDraftItemSchema>;

export const importStatuses = ['staged', 'queued', 'reading', 'creating', 'registering', 'done', 'failed', 'canceled'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** The answer of POST /orders/upload in sync mode. */
export const uploadResponseSchema = z.object({
  resultItems: z.array(uploadResultItemSchema),
  base64: z.string().nullable(),
});

/** The answer of POST /orders/upload in async mode, and of GET /orders/upload/{uploadId}. */
export const uploadStateSchema = z.object({
  uploadId: z.number(),
  status: z.enum(importStatuses),
  /** Orders (or, while reading, rows) done so far, out of total. */
  done: z.number(),
  total: z.number(),
  created: z.number(),
  failed: z.number(),
  resultItems: z.array(uploadResultItemSchema),
  base64: z.string().nullable(),
  /** Why the whole file failed (status failed): an interface error body. */
  error: z
    .object({ code: z.string(), message: z.string(), description: z.string().optional(), moreInfo: z.string().optional() })
    .nullable(),
});
export type UploadState = z.output<typeof uploadStateSchema>;
