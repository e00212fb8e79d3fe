import { z } from 'zod';
import { command } from './define';
import { importStatuses, uploadFailedItemSchema, uploadSettingsSchema, uploadStateSchema } from '../schemas/upload';

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
});

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
  rows: z.array(z.object({ row: z.number(), cells: z.record(z.string(), z.string()) })),
  suggested: suggestedMappingSchema,
});

export const importDryRunSchema = z.object({
  importId,
  /** Orders found in the file. */
  orders: z.number(),
  valid: z.number(),
  failed: z.number(),
  /** Every failed order with its errors (valid ones are left out). */
  resultItems: z.array(uploadFailedItemSchema),
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

const fileSchema = z.object({
  base64: z.string().min(1, 'the file is empty'),
  name: z.string().trim().max(255).optional(),
});

export const importCommands = {
  'import.preview': command(
    'Stage a workbook: its first rows, the detected header row and a suggested column map',
    z.object({ file: fileSchema, rows: z.number().int().min(1).max(200).default(20) }),
    importPreviewSchema,
  ),
  'import.suggestMapping': command('Guess a column map from column titles', z.object({ headers: z.array(headerCellSchema) }), suggestedMappingSchema),
  'import.dryRun': command('Check every order of a staged workbook; nothing is created', z.object({ importId, settings: uploadSettingsSchema }), importDryRunSchema),
  'import.run': command(
    'Create the orders of a staged workbook in the background; progress comes as import.progress events',
    z.object({ importId, settings: uploadSettingsSchema, errorsToFile: z.boolean().default(true) }),
    uploadStateSchema,
  ),
  'import.cancel': command('Stop a running import; orders already created stay', z.object({ importId }), uploadStateSchema),
  'import.results': command(
    'State and result rows of an import',
    z.object({ importId, offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(20_000).default(1000) }),
    uploadStateSchema,
  ),
  'import.errorsFile': command(
    'The workbook with its failed rows marked and their errors beside them (null when no row failed)',
    z.object({ importId }),
    z.object({ fileName: z.string(), base64: z.string().nullable() }),
  ),
};
