import { z } from 'zod';
import { base64Size, command, DEFAULT_COMMAND_BODY_LIMIT } from './define';
import { shopStaff } from '../roles';
import { errorBodySchema } from '../schemas/error-body';
import { importStatuses, uploadCreatedItemSchema, uploadDraftItemSchema, uploadFailedItemSchema, uploadSettingsSchema, uploadStateSchema } from '../schemas/upload';

/**
 * The desktop import wizard's commands. A workbook is staged once (import.preview), then checked
 * (import.dryRun) and imported (import.run) by its importId with the settings the user confirmed —
 * the same settings as POST /orders/upload. import.run answers at once; progress arrives as
 * `import.progress` events (importProgressEventSchema), results through import.results.
 */

const importId = z.number().int().positive();

const headerCellSchema = z.object({ column: z.string(), title: z.string() });

export const suggestedMappingSchema = z.object({
  columnMap: z.record(z.string(), z.string()),
  /** true when the name sits in separate surname / first name / patronymic columns. */
  nameFormat: z.boolean(),
  matches: z.array(z.object({ column: z.string(), title: z.string(), key: z.string().nullable() })),
  /** The shop platform whose export the titles match (its ready mapping), when one does. */
  platform: z.string().optional(),
  /** The platform's layout: each item on a row of its own. */
  itemsNewRow: z.boolean().optional(),
});

/** A shop platform with a ready mapping of its order export (InSales, Tilda, WooCommerce, 1С, our template). */
export const importPlatformSchema = z.object({ id: z.string(), name: z.string() });

export const importPreviewSchema = z.object({
  importId,
  fileName: z.string().nullable(),
  /** The sheet that is imported: the first visible one. */
  sheetName: z.string(),
  sheetNames: z.array(z.string()),
  /** The row that reads like column titles; data starts on the next one (rowStart). */
  headerRow: z.number(),
  rowStart: z.number(),
  headers: z.array(headerCellSchema),
  /** The first rows of the sheet as the user sees them: column letter → text. */
  rows: z.array(
    z.object({
      row: z.number(),
      cells: z.record(z.string(), z.string()),
      /** The cells the workbook stores as dates or times (column letter → the cell's text), shown in the app's language. */
      dates: z.record(z.string(), z.string()).optional(),
      /** The cells the workbook stores as numbers (column letter → the cell's text, "990.5"), shown in the app's language. */
      numbers: z.record(z.string(), z.string()).optional(),
    }),
  ),
  suggested: suggestedMappingSchema,
});

/** A failed row as the window gets it: each error also by key (shared/messages), for its language. */
const appFailedItemSchema = uploadFailedItemSchema.extend({ errors: z.array(errorBodySchema.shape.errors.unwrap().element) });
/** An import's state and results as the window gets them (the upload's answer, row errors by key). */
export const appUploadStateSchema = uploadStateSchema.extend({
  resultItems: z.array(z.union([uploadCreatedItemSchema, appFailedItemSchema, uploadDraftItemSchema])),
});

export const importDryRunSchema = z.object({
  importId,
  /** Orders found in the file. */
  orders: z.number(),
  valid: z.number(),
  failed: z.number(),
  /** Every failed order with its errors (valid ones are left out), each error also by key for the window's language. */
  resultItems: z.array(appFailedItemSchema),
});

/** Push event while an import runs (and once when it ends). */
export const importProgressEventSchema = z.object({
  type: z.literal('import.progress'),
  importId,
  status: z.enum(importStatuses),
  /** reading: rows read of the sheet's rows; creating: orders written of all orders. */
  done: z.number(),
  total: z.number(),
});
export type ImportProgressEvent = z.output<typeof importProgressEventSchema>;

/** Where the orders of an import land: created and sent, or kept as drafts to check first. */
export const importTargets = ['orders', 'drafts'] as const;

const presetHeaderSchema = z.object({ column: z.string().regex(/^[A-Z]{1,3}$/, 'must be a column letter such as A or AB'), title: z.string().max(500) });

/** A saved column mapping, offered again for files whose header row matches. */
export const importPresetSchema = z.object({
  id: z.number(),
  name: z.string(),
  settings: uploadSettingsSchema,
  /** The header row the mapping was made for. */
  headers: z.array(headerCellSchema),
  created: z.string(),
  updated: z.string(),
});
export type ImportPreset = z.output<typeof importPresetSchema>;

/** A field a column can fill, with the upload table's required flag ('address': unless addressString is given). */
export const importFieldSchema = z.object({
  key: z.string(),
  level: z.enum(['order', 'item']),
  kind: z.enum(['text', 'number', 'time', 'date']),
  required: z.union([z.boolean(), z.literal('address')]),
  /**
   * How the wizard fills it when no column gives it: the delivery service chosen, the tariff chosen, the items
   * (weight, declared value), the order's weight (the parcel's), one piece, or the default sender profile.
   */
  filledBy: z.enum(['service', 'tariff', 'items', 'order', 'one', 'senderProfile']).optional(),
});
export type ImportField = z.output<typeof importFieldSchema>;

/** The largest workbook an import takes, in either window (the core's file check, the browser's command body). */
export const maxWorkbookBytes = 30 * 1024 * 1024;

const fileSchema = z.object({
  base64: z.string().min(1, 'the file is empty'),
  name: z.string().trim().max(255).optional(),
});

/** The language of the window asking: the errors file is written in it (absent: the app's language setting). */
const windowLanguage = z.enum(['ru', 'en']).optional();

export const importCommands = {
  'import.preview': command(
    'Stage a workbook: its first rows, the detected header row and a suggested column map',
    z.object({ file: fileSchema, rows: z.number().int().min(1).max(200).default(20) }),
    importPreviewSchema,
    shopStaff,
    // The largest workbook the import takes, as base64, with an ordinary body's room for the rest.
    base64Size(maxWorkbookBytes) + DEFAULT_COMMAND_BODY_LIMIT,
  ),
  'import.suggestMapping': command(
    'Guess a column map from column titles, or take a shop platform\'s ready mapping for them',
    z.object({ headers: z.array(headerCellSchema), platform: z.string().max(40).optional() }),
    suggestedMappingSchema,
    shopStaff,
  ),
  'import.platforms': command('Shop platforms with a ready mapping of their order export', z.object({}), z.array(importPlatformSchema), shopStaff),
  'import.template': command('Our own order template, an xlsx workbook with example orders', z.object({}), z.object({ fileName: z.string(), base64: z.string() }), shopStaff),
  'import.dryRun': command('Check every order of a staged workbook; nothing is created', z.object({ importId, settings: uploadSettingsSchema }), importDryRunSchema, shopStaff),
  'import.run': command(
    'Create the orders of a staged workbook in the background; progress comes as import.progress events',
    z.object({ importId, settings: uploadSettingsSchema, errorsToFile: z.boolean().default(true), target: z.enum(importTargets).default('orders'), language: windowLanguage }),
    uploadStateSchema,
    shopStaff,
  ),
  'import.cancel': command('Stop a running import; orders already created stay', z.object({ importId }), uploadStateSchema, shopStaff),
  'import.results': command(
    'State and result rows of an import',
    z.object({ importId, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(20_000).default(1000) }),
    appUploadStateSchema,
    shopStaff,
  ),
  'import.errorsFile': command(
    'The workbook with its failed rows marked and their errors beside them (null when no row failed)',
    z.object({ importId, language: windowLanguage }),
    z.object({ fileName: z.string(), base64: z.string().nullable() }),
    shopStaff,
  ),
  'import.fields': command('The fields a column can fill (the upload table), with their required flags', z.object({}), z.array(importFieldSchema), shopStaff),
  'import.presets.list': command('Saved column mappings, last saved first', z.object({}), z.array(importPresetSchema), shopStaff),
  'import.presets.save': command(
    'Save a column mapping under a name (the same name again replaces it)',
    z.object({ name: z.string().trim().min(1, 'is required').max(100), settings: uploadSettingsSchema, headers: z.array(presetHeaderSchema).max(1000) }),
    importPresetSchema,
    shopStaff,
  ),
  'import.presets.delete': command('Delete a saved column mapping', z.object({ id: z.number().int().positive() }), z.object({ id: z.number(), deleted: z.string() }), shopStaff),
};
