import { ErrorCode, type FieldError } from '../../../shared/errors';
import type { AppCourierCallCreated, CourierCallCanceled, CourierCallCreate, CourierCallDraft, CourierCallView } from '../../../shared/schemas/courier-call';
import { formatTimestamp } from '../../../shared/time';
import { localDate, localHour } from '../calculator/calendar';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, badRequest, notFound, validationError } from '../errors';
import type { CourierCallRequest } from '../providers/courier-call';
import { ProviderRejectedError, ProviderUnavailableError, type TrackedShipment } from '../providers/provider';
import { callFailure, serviceUnavailable } from '../providers/service-failure';
import type { ProviderRegistry } from '../providers/registry';
import type { CourierCall, CourierCallsStore } from '../store/courier-calls/courier-calls-store';
import type { OrdersStore, StoredOrder } from '../store/orders/orders-store';
import { said } from '../../../shared/messages';
import { refOf } from './courier-refresh';

const courierCallNotFound = (id: string | number) => notFound(said('notFound.courierCall', { id }));
const alreadyCanceled = (id: number) =>
  new AppError(400, { code: ErrorCode.alreadyCanceled, message: 'Courier call already canceled', description: `Courier call ${id} is already canceled` });

/** What a call is kept with until its service answers: a call that dies half-way stays listed, failed, with this. */
const unanswered = said('courier.noAnswer');

function view(call: CourierCall): CourierCallView {
  const asked = call.request;
  const address = asked.addressString ?? [asked.postIndex, asked.city, asked.street, asked.house, asked.block, asked.office].filter(Boolean).join(', ');
  return {
    id: call.id,
    providerKey: call.providerKey,
    providerConnectId: call.providerConnectId,
    date: call.date,
    timeStart: call.timeStart,
    timeEnd: call.timeEnd,
    weight: asked.weight,
    city: asked.city,
    address,
    contactName: asked.contactName,
    phone: asked.phone,
    comment: asked.comment ?? null,
    orderIds: call.orderIds,
    state: call.state,
    providerNumber: call.providerNumber,
    error: call.error,
    errorMessage: call.errorMessage,
    created: formatTimestamp(call.createdAt),
    canceled: call.canceledAt === null ? null : formatTimestamp(call.canceledAt),
  };
}

const shipmentOf = (o: StoredOrder & { providerNumber: string }): TrackedShipment => ({
  providerNumber: o.providerNumber,
  additionalProviderNumber: o.additionalProviderNumber,
  request: { companyId: o.companyId, orderId: o.id, clientNumber: o.clientNumber, order: o.payload, providerNumber: o.providerNumber, additionalProviderNumber: o.additionalProviderNumber },
});

export interface CourierServiceDeps {
  store: CourierCallsStore;
  /** Where the orders named in a call are read. */
  orders: Pick<OrdersStore, 'findOrders'>;
  clock: Clock;
  providers: ProviderRegistry;
  /** The company's default sender (the form starts from it), or null when it has none. */
  defaultSender(ctx: CallContext): Promise<Record<string, unknown> | null>;
}

/**
 * Courier calls: asked of the carrier at once (the shop waits for the answer, as the interface does) and kept
 * whatever it answered, so a refused call shows why. Orders named in a call must be the company's own,
 * registered with that service. Where a call stands later (a service that numbers or refuses calls after
 * answering) is asked by the scheduler (courier-refresh.ts); the list shows what is kept.
 */
export function createCourierService(deps: CourierServiceDeps) {
  const { store, clock, providers } = deps;
  /** The company's orders (canceled included, deleted never) among the ids. */
  const ordersToCollect = async (ctx: CallContext, ids: number[]) => (ids.length ? [...(await deps.orders.findOrders(ctx.companyId, ids)).values()] : []);

  /** The named orders as the carrier sees them; each one that cannot go is named in the error. */
  async function shipmentsOf(ctx: CallContext, providerKey: string, orderIds: string[]): Promise<TrackedShipment[]> {
    if (orderIds.length === 0) return [];
    const found = await ordersToCollect(ctx, orderIds.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0));
    const byId = new Map(found.map((o) => [String(o.id), o]));
    const errors: FieldError[] = [];
    const shipments: TrackedShipment[] = [];
    orderIds.forEach((id, i) => {
      const order = byId.get(id);
      if (!order) errors.push({ field: `orderIds.${i}`, message: `order ${id} was not found` });
      else if (order.providerKey !== providerKey) errors.push({ field: `orderIds.${i}`, message: `order ${id} goes with ${order.providerKey}, not ${providerKey}` });
      else if (order.state !== 'active' || order.providerNumber === null) errors.push({ field: `orderIds.${i}`, message: `order ${id} is not registered with ${providerKey}` });
      else shipments.push(shipmentOf({ ...order, providerNumber: order.providerNumber }));
    });
    if (errors.length) throw validationError(errors);
    return shipments;
  }

  async function callOf(ctx: CallContext, rawId: string | number): Promise<CourierCall> {
    const id = Number(rawId);
    if (!Number.isSafeInteger(id) || id <= 0) throw courierCallNotFound(rawId);
    const call = await store.find(ctx.companyId, id);
    if (!call) throw courierCallNotFound(rawId);
    return call;
  }

  function requestOf(ctx: CallContext, id: number, input: CourierCallCreate, shipments: TrackedShipment[], now: number): CourierCallRequest {
    return {
      companyId: ctx.companyId,
      callId: id,
      providerConnectId: input.providerConnectId,
      date: input.date,
      timeStart: input.timeStart,
      timeEnd: input.timeEnd,
      weight: input.weight,
      length: input.length,
      width: input.width,
      height: input.height,
      address: {
        countryCode: input.countryCode, city: input.city, postIndex: input.postIndex, region: input.region, area: input.area, street: input.street,
        house: input.house, block: input.block, office: input.office, lat: input.lat, lng: input.lng, addressString: input.addressString,
      },
      companyName: input.companyName,
      contactName: input.contactName,
      phone: input.phone,
      email: input.email,
      comment: input.comment,
      shipments,
      today: localDate(now),
      hour: localHour(now),
    };
  }

  return {
    async create(ctx: CallContext, input: CourierCallCreate): Promise<AppCourierCallCreated> {
      const carrier = providers.get(input.providerKey);
      if (!carrier) throw validationError([{ field: 'providerKey', ...said('rule.unknownProvider', { name: input.providerKey }) }]);
      if (!carrier.courierCalls) throw validationError([{ field: 'providerKey', ...said('courier.msg.noCalls', { name: input.providerKey }) }]);
      const orderIds = [...new Set(input.orderIds)];
      const shipments = await shipmentsOf(ctx, input.providerKey, orderIds);

      const now = clock.now();
      const id = await store.add(
        {
          companyId: ctx.companyId, providerKey: input.providerKey, providerConnectId: input.providerConnectId ?? null,
          date: input.date, timeStart: input.timeStart, timeEnd: input.timeEnd, request: input, orderIds, createdAt: now,
        },
        unanswered,
      );
      const created = formatTimestamp(now);
      try {
        const accepted = await carrier.courierCalls.create(requestOf(ctx, id, input, shipments, now));
        const additional = accepted.additionalProviderNumber ?? null;
        await store.settle(id, { state: 'accepted', providerNumber: accepted.providerNumber, additionalProviderNumber: additional });
        return { id, created, providerNumber: accepted.providerNumber, additionalProviderNumber: additional, error: null, errorMessage: null };
      } catch (error) {
        if (!(error instanceof ProviderRejectedError || error instanceof ProviderUnavailableError)) throw error;
        const failure = callFailure(error);
        await store.settle(id, { state: error instanceof ProviderRejectedError ? 'refused' : 'failed', error: failure.message, errorMessage: failure.ref });
        return { id, created, providerNumber: null, additionalProviderNumber: null, error: failure.message, errorMessage: failure.ref };
      }
    },

    async cancel(ctx: CallContext, rawId: string | number): Promise<CourierCallCanceled> {
      const call = await callOf(ctx, rawId);
      if (call.state === 'canceled') throw alreadyCanceled(call.id);
      if (call.state !== 'accepted') throw badRequest(said('courier.notAccepted', { id: call.id }));
      const carrier = providers.get(call.providerKey);
      if (!carrier?.courierCalls) throw badRequest(said('courier.notConnected', { service: call.providerKey, id: call.id }));
      try {
        await carrier.courierCalls.cancel(refOf(call));
      } catch (error) {
        if (error instanceof ProviderRejectedError) throw badRequest(said('courier.cancelRefused', { service: call.providerKey, id: call.id, reason: error.ref ?? error.description }));
        if (error instanceof ProviderUnavailableError) throw serviceUnavailable(error);
        throw error;
      }
      const now = clock.now();
      // Applied only while the call is still accepted: two cancels racing each other answer once with success and once with 040081.
      if (!(await store.update(call.id, { state: 'canceled', at: now }))) throw alreadyCanceled(call.id);
      return { id: call.id, canceled: formatTimestamp(now) };
    },

    /** The chosen orders' totals and common service, and the default sender profile, for the form. */
    async prepare(ctx: CallContext, orderIds: string[]): Promise<CourierCallDraft> {
      const ids = orderIds.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
      const orders = await ordersToCollect(ctx, ids);
      const keys = new Set(orders.map((o) => o.providerKey));
      const connects = new Set(orders.map((o) => o.payload.order.providerConnectId ?? null));
      const places = orders.flatMap((o) => o.payload.places);
      const largest = (side: 'length' | 'width' | 'height') => {
        const sides = places.map((p) => p[side]).filter((v): v is number => typeof v === 'number');
        return sides.length ? Math.ceil(Math.max(...sides)) : null;
      };
      return {
        orders: orders.length,
        providerKey: keys.size === 1 ? [...keys][0] : null,
        providerConnectId: connects.size === 1 ? [...connects][0] : null,
        weight: Math.round(orders.reduce((sum, o) => sum + o.payload.order.weight, 0)),
        length: largest('length'),
        width: largest('width'),
        height: largest('height'),
        sender: await deps.defaultSender(ctx),
      };
    },

    /** The company's calls, newest first, as kept (the scheduler brings the services' later word). */
    async list(ctx: CallContext, page: { limit: number; offset: number }): Promise<{ rows: CourierCallView[]; total: number }> {
      const { calls, total } = await store.page(ctx.companyId, page);
      return { rows: calls.map(view), total };
    },
  };
}

export type CourierService = ReturnType<typeof createCourierService>;
