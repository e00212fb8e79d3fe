import { z } from 'zod';
import { appCourierCallCreatedSchema, courierCallCanceledSchema, courierCallCreateSchema, courierCallDraftSchema, courierCallViewSchema } from '../schemas/courier-call';
import { command } from './define';
import { shopStaff } from '../roles';

/** Courier calls ("Вызвать курьера"): the same service the interface's POST /courierCall uses. */
export const courierCommands = {
  'courier.create': command('Asks a delivery service to send a courier for the shop\'s parcels; the call is kept whatever it answers', courierCallCreateSchema, appCourierCallCreatedSchema, shopStaff),
  'courier.cancel': command('Cancels an accepted courier call at its service', z.object({ id: z.number().int().positive() }), courierCallCanceledSchema, shopStaff),
  'courier.prepare': command(
    'The totals of the chosen orders and the default sender, to fill the courier-call form',
    z.object({ orderIds: z.array(z.union([z.string(), z.number()]).transform(String)).max(1000).default([]) }),
    courierCallDraftSchema,
    shopStaff,
  ),
  'courier.list': command(
    'The company\'s courier calls, newest first',
    z.object({ limit: z.number().int().min(1).max(500).default(100), offset: z.number().int().min(0).default(0) }).default({ limit: 100, offset: 0 }),
    z.object({ rows: z.array(courierCallViewSchema), total: z.number().int() }),
    shopStaff,
  ),
};
