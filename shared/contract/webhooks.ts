import { z } from 'zod';
import { ownerOnly } from '../roles';
import { messageRefSchema } from '../schemas/error-body';
import { command } from './define';

export const webhookTypes = ['ORDER_STATUS'] as const;

/** One attempt of a webhook call: when, which status of which order, what the site answered or why nothing. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  deliveryId: z.number().int(),
  orderId: z.string(),
  statusKey: z.string(),
  /** The site's HTTP status; null when no answer came (see `error`). */
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  delivered: z.boolean(),
});
export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;

/** A webhook as its company lists it (GET /webhooks): never its secret. */
export const webhookRowSchema = z.object({
  uuid: z.string(),
  url: z.string(),
  type: z.enum(webhookTypes),
  created: z.string(),
  /** The newest attempts first. */
  lastAttempts: z.array(webhookAttemptSchema),
});
export type WebhookRow = z.output<typeof webhookRowSchema>;

/** An attempt as the window gets it: why no answer came also as data (shared/messages), for its language. */
export const appWebhookAttemptSchema = webhookAttemptSchema.extend({ errorMessage: messageRefSchema.nullable().optional() });
export type AppWebhookAttempt = z.output<typeof appWebhookAttemptSchema>;

/** Every company's webhooks, for the shop's owner (Settings → Local API). */
export const webhookOverviewSchema = z.array(
  webhookRowSchema.extend({ companyName: z.string(), waiting: z.number().int(), lastAttempts: z.array(appWebhookAttemptSchema) }),
);

export const webhookCommands = {
  'webhooks.overview': command(
    'Every company\'s status webhooks with their calls still waiting and their last attempts (the secrets never)',
    z.object({}).default({}),
    webhookOverviewSchema,
    ownerOnly,
  ),
};
