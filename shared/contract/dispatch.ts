import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';

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
});
export type DispatchGroup = z.output<typeof dispatchGroupSchema>;

export const handoverSchema = z.object({ number: z.string(), handedAt: z.string(), providerKey: z.string(), orders: z.number().int(), places: z.number().int(), weightGrams: z.number() });
export type Handover = z.output<typeof handoverSchema>;

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
};
