import { z } from 'zod';
import { attentionReasons } from '../attention';
import { shopStaff } from '../roles';
import { calendarDate } from '../schemas/primitives';
import { statusKeys } from '../status-keys';
import { command } from './define';

const serviceCount = z.object({ providerKey: z.string(), serviceName: z.string(), orders: z.number().int() });

const createdFiguresSchema = z.object({
  /** First and last calendar day counted (the shop's clock), as the orders list's date filter takes them. */
  dateFrom: calendarDate,
  dateTo: calendarDate,
  total: z.number().int(),
  byStatus: z.array(z.object({ statusKey: z.enum(statusKeys), orders: z.number().int() })),
  byService: z.array(serviceCount),
});

export const attentionSummarySchema = z.object({
  total: z.number().int(),
  byReason: z.array(z.object({ reason: z.enum(attentionReasons), orders: z.number().int() })),
});

export const todayDashboardSchema = z.object({
  today: calendarDate,
  /** Orders created today and since Monday, by status and by service (deleted ones not counted). */
  created: z.object({ today: createdFiguresSchema, week: createdFiguresSchema }),
  attention: attentionSummarySchema,
  /** Registered, live, not yet handed over on the dispatch screen. */
  awaitingHandover: z.object({ total: z.number().int(), byService: z.array(serviceCount) }),
  /**
   * Cash on delivery of live orders on their way (registered up to out for delivery), by service and by
   * the delivery day the order names (null: no day named, or one already past). Rubles.
   */
  codExpected: z.object({
    statusKeys: z.array(z.enum(statusKeys)),
    orders: z.number().int(),
    amount: z.number(),
    byService: z.array(
      serviceCount.extend({
        amount: z.number(),
        byDay: z.array(z.object({ date: calendarDate.nullable(), orders: z.number().int(), amount: z.number() })),
      }),
    ),
  }),
  /** Orders created in the last 30 days (dateFrom…today) and delivered: days from creation to delivery, per service. */
  deliveryTimes: z.object({
    dateFrom: calendarDate,
    byService: z.array(
      z.object({
        providerKey: z.string(),
        serviceName: z.string(),
        delivered: z.number().int(),
        averageDays: z.number(),
        fastestDays: z.number(),
        slowestDays: z.number(),
      }),
    ),
  }),
});
export type TodayDashboard = z.output<typeof todayDashboardSchema>;

const orderIds = z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'name at least one order').max(1000, 'at most 1000 orders at once');

/** The "Today" screen's figures and the orders that need the shop's attention. */
export const dashboardCommands = {
  'dashboard.today': command(
    'The day at a glance: orders created today and this week, what needs attention, what waits for handover, cash on delivery expected, delivery times',
    z.object({}).default({}),
    todayDashboardSchema,
    shopStaff,
  ),
  'orders.attention': command(
    'How many orders need attention (refused by the service, refused change, coming back, in trouble), by reason',
    z.object({}).default({}),
    attentionSummarySchema,
    shopStaff,
  ),
  'statuses.nextTestChange': command(
    'When the next status change is due at a test service (its schedule is fixed): for one order, or the soonest among the company\'s orders',
    z.object({ orderId: z.union([z.string(), z.number()]).transform(String).optional() }).default({}),
    z.object({
      next: z.object({ orderId: z.string(), clientNumber: z.string(), statusKey: z.enum(statusKeys), at: z.string() }).nullable(),
    }),
    shopStaff,
  ),
  'orders.markSeen': command(
    'Marks orders that need attention as seen: they leave the list until their status changes again',
    z.object({ orderIds }),
    z.object({ seen: z.number().int() }),
    shopStaff,
  ),
};
