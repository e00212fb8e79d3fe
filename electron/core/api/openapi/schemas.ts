import { z } from 'zod';
import { pagedSchema, pointSchema, providerRecordSchema, statusRecordSchema, tariffSchema } from '../../../../shared/schemas/lists';

/**
 * Schemas the reference needs that shared/schemas does not have (the wire bodies themselves are imported
 * from there, never written twice): the error body and the paged envelopes of the lists.
 */

/** The interface's error body (shared/errors.ts `ErrorBody`), as a schema: the reference and the robustness tests check it. */
export const errorBodySchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  message: z.string(),
  description: z.string().optional(),
  moreInfo: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

// ---- paged envelopes of the lists ----

export const pointsPageSchema = pagedSchema(pointSchema);
export const tariffsPageSchema = pagedSchema(tariffSchema);
export const providersPageSchema = pagedSchema(providerRecordSchema);
export const statusesPageSchema = pagedSchema(statusRecordSchema);

/** The document itself and the reference page have no wire schema of their own. */
export const openApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });
export const htmlPageSchema = z.string();
