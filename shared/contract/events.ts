import { z } from 'zod';
import { importProgressEventSchema } from './import';
import { shopStaff } from '../roles';
import { ordersNoticeEventSchema, outboxViewSchema, refreshProgressEventSchema } from './bulk';

/** Every push event names the company it is about; a transport delivers it to that company's callers only. */
const companyId = z.number().int();

const ordersChanged = z.object({ type: z.literal('orders.changed'), companyId, orderIds: z.array(z.string()) });
/** The company's queue now, and the orders whose jobs came back since the last state (done, or a failed try). */
const outboxState = outboxViewSchema
  .pick({ pending: true, waitingForConnection: true })
  .extend({ type: z.literal('outbox.state'), companyId, orderIds: z.array(z.string()).optional() });
const settingsChanged = z.object({
  type: z.literal('settings.changed'),
  companyId,
  what: z.enum(['company', 'preferences', 'apiToken', 'senderProfiles', 'users', 'lan']),
});
const draftsChanged = z.object({ type: z.literal('drafts.changed'), companyId });
/** A delivery service's later word changed the company's courier calls (a number, a refusal, a cancel). */
const courierChanged = z.object({ type: z.literal('courier.changed'), companyId });
/** The calling session was ended (signed out, revoked, password changed): the window signs in again. */
const sessionEnded = z.object({ type: z.literal('session.ended'), companyId, sessionId: z.number().int() });

/** The core's push events (`/app/events` in browser mode, the IPC event channel in the desktop app). */
export const appEventSchema = z.discriminatedUnion('type', [
  ordersChanged,
  outboxState,
  refreshProgressEventSchema,
  ordersNoticeEventSchema,
  settingsChanged,
  draftsChanged,
  courierChanged,
  importProgressEventSchema.extend({ companyId }),
  sessionEnded,
]);
export type AppEvent = z.output<typeof appEventSchema>;
export type AppEventType = AppEvent['type'];

/** Who may listen to the push events (of their own company): the shop's windows, never an API token. */
export const eventRoles = shopStaff;
