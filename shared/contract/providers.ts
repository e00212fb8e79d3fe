import { z } from 'zod';
import { command } from './define';

export const providerCapabilitiesSchema = z.object({
  cancel: z.boolean(),
  update: z.boolean(),
  intervals: z.enum(['none', 'fixed', 'dynamic']),
  deliveryTypes: z.array(z.number().int()),
  pickupTypes: z.array(z.number().int()),
  cod: z.boolean(),
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
  'providers.list': command('Delivery services available to the company', z.object({}).default({}), z.array(providerInfoSchema)),
};
