import type { Selectable } from 'kysely';
import { ErrorCode, type FieldError } from '../../../shared/errors';
import type { CourierCallCanceled, CourierCallCreate, CourierCallCreated, CourierCallDraft, CourierCallView } from '../../../shared/schemas/courier-call';
import type { OrderCreate } from '../../../shared/schemas/order';
import { formatTimestamp } from '../../../shared/time';
import { localDate, localHour } from '../calculator/calendar';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, badRequest, notFound, validationError } from '../errors';
import { requestFor } from '../outbox/outbox';
import type { CourierCallRef, CourierCallRequest } from '../providers/courier-call';
import { ProviderRejectedError, ProviderUnavailableError, type TrackedShipment } from '../providers/provider';
import { callFailure, serviceUnavailable } from '../providers/service-failure';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import type { CourierCallsTable } from '../store/schema';
import { said } from '../../../shared/messages';

type Row = Selectable<CourierCallsTable>;

const courierCallNotFound = (id: string | number) => notFound(`Courier call ${id} was not found`);
const alreadyCanceled = (id: number) =>
  new AppError(400, { code: ErrorCode.alreadyCanceled, message: 'Courier call already canceled', description: `Courier call ${id} is already canceled` });


const refOf = (row: Row): CourierCallRef => ({
  companyId: row.company_id,
  providerConnectId: row.provider_connect_id ?? undefined,
  providerNumber: row.provider_number,
  additionalProviderNumber: row.additional_provider_number,
});

function view(row: Row): CourierCallView {
  const asked = JSON.parse(row.request) as CourierCallCreate;
  const address = asked.addressString ?? [asked.postIndex, asked.city, asked.street, asked.house, asked.block, asked.office].filter(Boolean).join(', ');
  return {
    id: row.id,
    providerKey: row.provider_key,
    providerConnectId: row.provider_connect_id,
    date: row.date,
    timeStart: row.time_start,
    timeEnd: row.time_end,
    weight: asked.weight,
    city: asked.city,
    address,
    contactName: asked.contactName,
    phone: asked.phone,
    comment: asked.comment ?? null,
    orderIds: JSON.parse(row.order_ids) as string[],
    state: row.state,
    providerNumber: row.provider_number,
    error: row.error,
    created: formatTimestamp(row.created_at),
    canceled: row.canceled_at === null ? null : formatTimestamp(row.canceled_at),
  };
}

/**
 * Courier calls: asked of the carrier at once (the shop waits for the answer, as the interface does) and kept
 * whatever it answered, so a refused call shows why. Orders named in a call must be the company's own,
 * registered with that service.
 */
export function createCourierService(deps: { db: Db; clock: Clock; providers: ProviderRegistry }) {
  const { db, clock, providers } = deps;

  /** The named orders as the carrier sees them; each one that cannot go is named in the error. */
  async function shipmentsOf(ctx: CallContext, providerKey: string, orderIds: string[]): Promise<TrackedShipment[]> {
    if (orderIds.length === 0) return [];
    const rows = await db.selectFrom('orders').selectAll().where('company_id', '=', ctx.companyId).where('state', '!=', 'deleted').where('id', 'in', orderIds.map(Number)).execute();
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const errors: FieldError[] = [];
    const shipments: TrackedShipment[] = [];
    orderIds.forEach((id, i) => {
      const row = byId.get(id);
      if (!row) errors.push({ field: `orderIds.${i}`, message: `order ${id} was not found` });
      else if (row.provider_key !== providerKey) errors.push({ field: `orderIds.${i}`, message: `order ${id} goes with ${row.provider_key}, not ${providerKey}` });
      else if (row.state !== 'active' || row.provider_number === null) errors.push({ field: `orderIds.${i}`, message: `order ${id} is not registered with ${providerKey}` });
      else shipments.push({ providerNumber: row.provider_number, additionalProviderNumber: row.additional_provider_number, request: requestFor(row) });
    });
    if (errors.length) throw validationError(errors);
    return shipments;
  }

  async function rowOf(ctx: CallContext, rawId: string | number): Promise<Row> {
    const id = Number(rawId);
    if (!Number.isSafeInteger(id) || id <= 0) throw courierCallNotFound(rawId);
    const row = await db.selectFrom('courier_calls').selectAll().where('id', '=', id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw courierCallNotFound(rawId);
    return row;
  }

  /**
   * Asks the service where an open call stands, for a service that settles calls later (CDEK numbers an
   * intake after its check). A service that cannot be asked now leaves the call as it was kept.
   */
  async function refreshed(row: Row): Promise<Row> {
    const courierCalls = providers.get(row.provider_key)?.courierCalls;
    const open = row.state === 'accepted' && (row.provider_number === null || row.date >= localDate(clock.now()));
    if (!open || !courierCalls?.refresh) return row;
    let progress;
    try {
      progress = await courierCalls.refresh(refOf(row));
    } catch (error) {
      if (error instanceof ProviderRejectedError || error instanceof ProviderUnavailableError) return row;
      throw error;
    }
    const change =
      progress.state === 'accepted'
        ? { provider_number: progress.providerNumber ?? row.provider_number }
        : progress.state === 'canceled'
          ? { state: 'canceled' as const, canceled_at: clock.now() }
          : { state: 'refused' as const, error: progress.reason, provider_number: null, additional_provider_number: null };
    // Conditional on the state read, so a cancel from the shop at the same moment is not overwritten.
    const done = await db.updateTable('courier_calls').set(change).where('id', '=', row.id).where('state', '=', 'accepted').executeTakeFirst();
    return Number(done.numUpdatedRows) === 0 ? row : { ...row, ...change };
  }

  return {
    async create(ctx: CallContext, input: CourierCallCreate): Promise<CourierCallCreated> {
      const carrier = providers.get(input.providerKey);
      if (!carrier) throw validationError([{ field: 'providerKey', ...said('rule.unknownProvider', { name: input.providerKey }) }]);
      if (!carrier.courierCalls) throw validationError([{ field: 'providerKey', ...said('courier.msg.noCalls', { name: input.providerKey }) }]);
      const orderIds = [...new Set(input.orderIds)];
      const shipments = await shipmentsOf(ctx, input.providerKey, orderIds);

      const now = clock.now();
      // Stored before the call: a call that dies half-way stays listed (failed) instead of vanishing.
      const { id } = await db
        .insertInto('courier_calls')
        .values({
          company_id: ctx.companyId,
          provider_key: input.providerKey,
          provider_connect_id: input.providerConnectId ?? null,
          date: input.date,
          time_start: input.timeStart,
          time_end: input.timeEnd,
          request: JSON.stringify(input),
          order_ids: JSON.stringify(orderIds),
          state: 'failed',
          error: 'The delivery service did not answer',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      const request: CourierCallRequest = {
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
      const created = formatTimestamp(now);
      try {
        const accepted = await carrier.courierCalls.create(request);
        const additional = accepted.additionalProviderNumber ?? null;
        await db.updateTable('courier_calls').set({ state: 'accepted', provider_number: accepted.providerNumber, additional_provider_number: additional, error: null }).where('id', '=', id).execute();
        return { id, created, providerNumber: accepted.providerNumber, additionalProviderNumber: additional, error: null };
      } catch (error) {
        if (!(error instanceof ProviderRejectedError || error instanceof ProviderUnavailableError)) throw error;
        const text = callFailure(error);
        await db.updateTable('courier_calls').set({ state: error instanceof ProviderRejectedError ? 'refused' : 'failed', error: text }).where('id', '=', id).execute();
        return { id, created, providerNumber: null, additionalProviderNumber: null, error: text };
      }
    },

    async cancel(ctx: CallContext, rawId: string | number): Promise<CourierCallCanceled> {
      const row = await rowOf(ctx, rawId);
      if (row.state === 'canceled') throw alreadyCanceled(row.id);
      if (row.state !== 'accepted') throw badRequest(`Courier call ${row.id} was not accepted by the delivery service; there is nothing to cancel`);
      const carrier = providers.get(row.provider_key);
      if (!carrier?.courierCalls) throw badRequest(`${row.provider_key} is not connected any more; cancel courier call ${row.id} with the service directly`);
      try {
        await carrier.courierCalls.cancel(refOf(row));
      } catch (error) {
        if (error instanceof ProviderRejectedError) throw badRequest(`${row.provider_key} refused to cancel courier call ${row.id}: ${error.description}`);
        if (error instanceof ProviderUnavailableError) throw serviceUnavailable(error);
        throw error;
      }
      const now = clock.now();
      // Conditional, so two cancels racing each other answer once with success and once with 040081.
      const done = await db.updateTable('courier_calls').set({ state: 'canceled', canceled_at: now }).where('id', '=', row.id).where('state', '=', 'accepted').executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw alreadyCanceled(row.id);
      return { id: row.id, canceled: formatTimestamp(now) };
    },

    /** The chosen orders' totals and common service, and the default sender profile, for the form. */
    async prepare(ctx: CallContext, orderIds: string[]): Promise<CourierCallDraft> {
      const ids = orderIds.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
      const rows = ids.length
        ? await db.selectFrom('orders').select(['provider_key', 'payload']).where('company_id', '=', ctx.companyId).where('state', '!=', 'deleted').where('id', 'in', ids).execute()
        : [];
      const orders = rows.map((r) => ({ providerKey: r.provider_key, order: JSON.parse(r.payload) as OrderCreate }));
      const keys = new Set(orders.map((o) => o.providerKey));
      const connects = new Set(orders.map((o) => o.order.order.providerConnectId ?? null));
      const places = orders.flatMap((o) => o.order.places);
      const largest = (side: 'length' | 'width' | 'height') => {
        const sides = places.map((p) => p[side]).filter((v): v is number => typeof v === 'number');
        return sides.length ? Math.ceil(Math.max(...sides)) : null;
      };
      const profile = await db.selectFrom('sender_profiles').select('sender').where('company_id', '=', ctx.companyId).orderBy('is_default', 'desc').orderBy('id').executeTakeFirst();
      return {
        orders: orders.length,
        providerKey: keys.size === 1 ? [...keys][0] : null,
        providerConnectId: connects.size === 1 ? [...connects][0] : null,
        weight: Math.round(orders.reduce((sum, o) => sum + o.order.order.weight, 0)),
        length: largest('length'),
        width: largest('width'),
        height: largest('height'),
        sender: profile ? (JSON.parse(profile.sender) as Record<string, unknown>) : null,
      };
    },

    /** The company's calls, newest first; the open ones as their services have them now. */
    async list(ctx: CallContext, page: { limit: number; offset: number }): Promise<{ rows: CourierCallView[]; total: number }> {
      const kept = await db.selectFrom('courier_calls').selectAll().where('company_id', '=', ctx.companyId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
      const { total } = await db.selectFrom('courier_calls').select((eb) => eb.fn.countAll<number>().as('total')).where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
      const rows = await Promise.all(kept.map(refreshed));
      return { rows: rows.map(view), total: Number(total) };
    },
  };
}

export type CourierService = ReturnType<typeof createCourierService>;
