import { z } from 'zod';
import { errorBodySchema } from './error-body';

/** Largest draft the core keeps (JSON text); an order form is a few kilobytes. */
export const draftMaxBytes = 256 * 1024;

/** A draft id: made by the form (so two saves in flight name one draft) or by the core on the first save. */
export const draftIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, - or _');

/**
 * The order form as typed: any JSON object, valid or not. Only its size is checked here; the order
 * rules apply when the draft is submitted.
 */
export const draftDataSchema = z
  .record(z.string(), z.unknown())
  .refine((data) => JSON.stringify(data).length <= draftMaxBytes, `must be at most ${draftMaxBytes / 1024} KiB of JSON`);

export const draftSaveSchema = z.object({
  /** Absent on the first save: the core makes one and answers it. */
  id: draftIdSchema.optional(),
  data: draftDataSchema,
});

export const draftSavedSchema = z.object({ id: z.string(), savedAt: z.string() });

export const draftSummarySchema = z.object({
  id: z.string(),
  clientNumber: z.string().nullable(),
  /** The recipient's contact name as typed. */
  recipient: z.string().nullable(),
  providerKey: z.string().nullable(),
  /** The delivery service's name, when the key names a known one. */
  serviceName: z.string().nullable(),
  created: z.string(),
  updated: z.string(),
});
export type DraftSummary = z.output<typeof draftSummarySchema>;

export const draftListQuerySchema = z.object({
  limit: z.number().int().min(1).max(1000).default(200),
  offset: z.number().int().min(0).default(0),
});

export const draftListSchema = z.object({ total: z.number().int(), rows: z.array(draftSummarySchema) });

export const draftSchema = z.object({
  id: z.string(),
  data: z.record(z.string(), z.unknown()),
  created: z.string(),
  updated: z.string(),
});
export type Draft = z.output<typeof draftSchema>;

export const draftRefSchema = z.object({ id: draftIdSchema });

export const draftSubmitSchema = z.object({ ids: z.array(draftIdSchema).min(1, 'name at least one draft').max(1000) });

/** One draft's outcome: an order (the draft is gone) or the errors to fix (the draft stays). */
export const draftSubmitItemSchema = z.union([
  z.object({ id: z.string(), ok: z.literal(true), orderId: z.string(), created: z.string() }),
  z.object({ id: z.string(), ok: z.literal(false), error: errorBodySchema }),
]);

export const draftSubmitResultSchema = z.object({
  created: z.number().int(),
  failed: z.number().int(),
  results: z.array(draftSubmitItemSchema),
});
export type DraftSubmitResult = z.output<typeof draftSubmitResultSchema>;
