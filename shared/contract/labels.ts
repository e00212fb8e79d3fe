import { z } from 'zod';
import { command } from './define';

/** Barcode labels printed by the delivery service (where it prints them), for the shop's printer. */
export const labelCommands = {
  'orders.labels': command(
    'Barcode labels of registered orders of one delivery service as one PDF (1–100 orders), made by the service',
    z.object({ orderIds: z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'name at least one order').max(100, 'at most 100 orders at once') }),
    z.object({ fileName: z.string(), base64: z.string(), orders: z.number().int() }),
  ),
};
