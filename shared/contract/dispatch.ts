import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';
import { failedOrderSchema } from './labels';

export const dispatchOrderSchema = z.object({
  orderId: z.string(),
  clientNumber: z.string(),
  providerNumber: z.string(),
  recipientName: z.string(),
  recipientCity: z.string().nullable(),
  places: z.number().int(),
  weightGrams: z.number(),
  created: z.string(),
});
export type DispatchOrder = z.output<typeof dispatchOrderSchema>;

const totalsSchema = z.object({ orders: z.number().int(), places: z.number().int(), weightGrams: z.number() });

export const dispatchGroupSchema = z.object({
  providerKey: z.string(),
  serviceName: z.string(),
  orders: z.array(dispatchOrderSchema),
  totals: totalsSchema,
  /** The act number this group's handover will take if handed over now. */
  nextActNumber: z.string(),
  /** Its service forms batches first (Russian Post: the ШПИ comes in a batch, Ф103 is sent at check-in). */
  formsBatches: z.boolean(),
});
export type DispatchGroup = z.output<typeof dispatchGroupSchema>;

export const handoverSchema = z.object({ number: z.string(), handedAt: z.string(), providerKey: z.string(), orders: z.number().int(), places: z.number().int(), weightGrams: z.number() });
export type Handover = z.output<typeof handoverSchema>;

/** A batch (партия) a postal service formed for the shop: Russian Post's orders get their ШПИ in one. */
export const postalBatchSchema = z.object({
  id: z.number().int(),
  providerKey: z.string(),
  /** The service's name of the batch. */
  name: z.string(),
  mailType: z.string(),
  mailCategory: z.string().nullable(),
  sendingDate: z.string(),
  orderIds: z.array(z.string()),
  created: z.string(),
  /** When its Ф103 was sent to the post office; null before. */
  checkedIn: z.string().nullable(),
});
export type PostalBatchInfo = z.output<typeof postalBatchSchema>;

const sendingDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

/** The dispatch screen: registered orders waiting to be handed to their delivery services. */
export const dispatchCommands = {
  'dispatch.pending': command(
    'Registered orders not handed over yet, grouped by delivery service, with their places and weight totals',
    z.object({}).default({}),
    z.object({ groups: z.array(dispatchGroupSchema) }),
    shopStaff,
  ),
  'dispatch.handOver': command(
    'Marks orders of one delivery service as handed over (one handover, numbered like its act); each stays on its order\'s timeline',
    z.object({
      providerKey: z.string().trim().min(1, 'name the delivery service'),
      orderIds: z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'name at least one order').max(1000, 'at most 1000 orders at once'),
    }),
    handoverSchema,
    shopStaff,
  ),
  'dispatch.postBatches': command(
    'The batches a postal service (Russian Post) formed for the shop, newest first, with their orders and whether their Ф103 was sent',
    z.object({}).default({}),
    z.object({ batches: z.array(postalBatchSchema) }),
    shopStaff,
  ),
  'dispatch.formPostBatches': command(
    'Puts registered orders of a postal service (Russian Post) into batches for a sending date; the service splits them by mail type and gives each order its tracking number (ШПИ)',
    z.object({
      providerKey: z.string().trim().min(1, 'name the delivery service'),
      orderIds: z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'name at least one order').max(1000, 'at most 1000 orders at once'),
      sendingDate,
    }),
    z.object({ batches: z.array(postalBatchSchema), refused: z.array(failedOrderSchema) }),
    shopStaff,
  ),
  'dispatch.checkInPostBatch': command(
    'Sends a batch\'s Ф103 to the post office (once) and marks its orders handed over',
    z.object({ batchId: z.number().int().positive() }),
    postalBatchSchema,
    shopStaff,
  ),
};
