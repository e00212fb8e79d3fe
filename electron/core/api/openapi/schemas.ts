import { z } from 'zod';
import { pagedSchema, pointSchema, providerRecordSchema, statusRecordSchema, tariffSchema } from '../../../../shared/schemas/lists';
import { filterLimits } from '../../lists/filter';
import { pageLimits } from '../../lists/lists-service';

/**
 * Schemas the reference needs that shared/schemas does not have (the wire bodies themselves are imported
 * from there, never written twice): the error body, the query parameters of the lists, the paged
 * envelopes of the lists, and the path parameters.
 */

/** The interface's error body (shared/errors.ts `ErrorBody`), as a schema: the reference and the robustness tests check it. */
export const errorBodySchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  message: z.string(),
  description: z.string().optional(),
  moreInfo: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

// ---- query parameters of the reference lists (as the lists service reads them) ----

export const listLimitParam = z.number().int().min(1).max(pageLimits.maxLimit).default(pageLimits.defaultLimit);
export const listOffsetParam = z.number().int().min(0).default(0);
export const filterParam = z.string().max(filterLimits.length);
export const fieldsParam = z.string();

/** GET /orders/upload/{uploadId}: which result items to include. */
export const uploadOffsetParam = z.number().int().min(0).default(0);
export const uploadLimitParam = z.number().int().min(1).max(20_000);

// ---- path parameters ----

export const orderIdParam = z.string().regex(/^[1-9]\d{0,14}$/);
export const uploadIdParam = z.string().regex(/^[1-9]\d{0,14}$/);
/** A calendar date or an ISO 8601 timestamp. */
export const momentParam = z.string();
export const clientNumberParam = z.string().min(1).max(50);

// ---- paged envelopes of the lists ----

export const pointsPageSchema = pagedSchema(pointSchema);
export const tariffsPageSchema = pagedSchema(tariffSchema);
export const providersPageSchema = pagedSchema(providerRecordSchema);
export const statusesPageSchema = pagedSchema(statusRecordSchema);

/** The document itself and the reference page have no wire schema of their own. */
export const openApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });
export const htmlPageSchema = z.string();
