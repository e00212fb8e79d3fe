import { z } from 'zod';
import { uploadRequestSchema } from '../../../../shared/schemas/upload';
import type { App } from '../../app';
import { notFound } from '../../errors';
import { parseInput } from '../../validation';
import type { Route } from '../route';

/** Base64 of the largest workbook accepted (30 MB) plus the settings, in JSON or XML. */
const uploadBodyLimit = 48 * 1024 * 1024;

const pagingSchema = z.object({
  offset: z.preprocess((v) => (v === null || v === '' ? undefined : v), z.coerce.number().int().min(0).optional()),
  limit: z.preprocess((v) => (v === null || v === '' ? undefined : v), z.coerce.number().int().min(1).max(20_000).optional()),
});

/**
 * POST /orders/upload (orders from a spreadsheet, sync or async) and our GET /orders/upload/{uploadId}
 * (the state and results of an upload, async ones in particular).
 */
export function uploadRoutes(app: App): Route[] {
  const { imports } = app.services;
  return [
    {
      method: 'POST',
      pattern: '/orders/upload',
      bodyLimit: uploadBodyLimit,
      handler: (req) => imports.upload(req.ctx, parseInput(uploadRequestSchema, req.body)),
    },
    {
      method: 'GET',
      pattern: '/orders/upload/:uploadId',
      handler: async (req) => {
        const id = req.params.uploadId;
        if (!/^[1-9]\d{0,14}$/.test(id)) throw notFound(`Upload ${id} was not found`);
        const paging = parseInput(pagingSchema, { offset: req.query.get('offset'), limit: req.query.get('limit') });
        return imports.state(req.ctx, Number(id), paging);
      },
    },
  ];
}
