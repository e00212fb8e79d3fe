import { z } from 'zod';
import type { MessageRef } from '../messages';

/** A message as data (shared/messages): a key and parameters, each a value or another message. */
export const messageRefSchema: z.ZodType<MessageRef> = z.lazy(() =>
  z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number(), messageRefSchema])).optional() }),
);
/** A message's key and parameters beside its English `message`, for the window (field errors, failed orders). */
export const messageRefFields = { key: z.string().optional(), params: z.record(z.string(), z.union([z.string(), z.number(), messageRefSchema])).optional() };

/** The interface's error body as the app's own commands carry it: with each message's key for the window. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  description: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string(), ...messageRefFields })).optional(),
  ...messageRefFields,
});
