import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';

/** What a delivery service can do through ShipDesk (the carrier's declared operations). */
export const carrierOperationSchema = z.enum(['create', 'find', 'update', 'cancel', 'remove', 'track', 'labels', 'handoverActs', 'courierCalls', 'batches', 'rates', 'intervals', 'referenceData']);
export type CarrierOperation = z.output<typeof carrierOperationSchema>;

export const providerCapabilitiesSchema = z.object({
  cancel: z.boolean(),
  update: z.boolean(),
  intervals: z.enum(['none', 'fixed', 'dynamic']),
  deliveryTypes: z.array(z.number().int()),
  pickupTypes: z.array(z.number().int()),
  cod: z.boolean(),
  /** Filled by the registry from the carrier's methods; absent in a carrier's own static description. */
  operations: z.array(carrierOperationSchema).optional(),
  /** Filled by the registry: labels and handover acts print for every service (drawn by ShipDesk where it has none of its own). */
  labels: z.boolean().optional(),
  handoverActs: z.boolean().optional(),
  /** Filled by the registry: the service takes courier calls. */
  courierCalls: z.boolean().optional(),
  /** Filled by the registry: the service's orders get their tracking number in a batch formed by ShipDesk (Russian Post). */
  batches: z.boolean().optional(),
  /**
   * Point types (1 pickup point, 2 parcel locker, 3 post office, 4 terminal) each listed tariff delivers to, by tariff id,
   * for the tariffs that go to some kinds only (Russian Post's parcel "called for" goes to post offices); a tariff not
   * listed takes any point of the service.
   */
  tariffPointTypes: z.record(z.string(), z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]))).optional(),
});

export const providerInfoSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  test: z.boolean(),
  capabilities: providerCapabilitiesSchema,
});
export type ProviderInfo = z.output<typeof providerInfoSchema>;

export const providerCommands = {
  'providers.list': command('Delivery services available to the company', z.object({}).default({}), z.array(providerInfoSchema), shopStaff),
};
