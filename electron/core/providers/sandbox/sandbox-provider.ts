import type { FieldError } from '../../../../shared/errors';
import { fieldReasons, said } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { statusNames, type StatusKey } from '../../../../shared/status-keys';
import type { Clock } from '../../clock';
import { createReferenceData, type ReferenceData } from '../../orders/reference-data';
import type { Db } from '../../store/database';
import { itemKey, ProviderRejectedError, type Carrier, type ProviderStatus, type Registration, type ShipmentRequest } from '../provider';
import type { SandboxService } from './catalog';
import { sandboxCourierCalls } from './courier';
import { intakeRefusals } from './intake';
import { sandboxIntervalsOf } from './intervals';
import { sandboxRatesOf } from './pricing';
import { handedOverBy, nextStatusAfter, statusesAt } from './timeline';

/** Units of an order, and what the recipient keeps on a partial return: every unit but one of the last item line. */
export function partialDelivery(order: OrderCreate): Record<string, number> {
  const lines = order.places.flatMap((p) => p.items);
  const kept: Record<string, number> = {};
  lines.forEach((item, i) => {
    const key = itemKey(item);
    kept[key] = (kept[key] ?? 0) + (i === lines.length - 1 ? item.quantity - 1 : item.quantity);
  });
  return kept;
}

const unitsOf = (order: OrderCreate) => order.places.reduce((n, p) => n + p.items.reduce((m, i) => m + i.quantity, 0), 0);

/** The intake's refusal of an order or its changes: the field errors themselves say why, each by its key. */
const refusal = (key: string, what: 'order' | 'changes', errors: FieldError[]) =>
  new ProviderRejectedError(said(what === 'order' ? 'provider.refusedOrder' : 'provider.refusedChangesBy', { service: key, reason: fieldReasons(errors) }), errors);

/**
 * A built-in test delivery service. It keeps its own books in sandbox_shipments, as a real service
 * would on its side, so "does this clientNumber exist there?" has a true answer across restarts.
 * Its intake refuses bad data after the fact (intake.ts); once a parcel is handed over (the timeline's
 * onPointIn) it no longer changes, cancels or deletes it. Which of update / cancel / remove it offers
 * follows its capabilities: express updates and cancels, lockers only cancel, post does neither and
 * deletes instead.
 */
export function createSandboxProvider(service: SandboxService, deps: { db: Db; clock: Clock; reference?: ReferenceData }): Carrier {
  const { db, clock } = deps;
  const reference = deps.reference ?? createReferenceData(db);
  const key = service.info.key;
  const caps = service.info.capabilities;

  const liveShipment = (request: ShipmentRequest) =>
    db
      .selectFrom('sandbox_shipments')
      .selectAll()
      .where('provider_key', '=', key)
      .where('company_id', '=', request.companyId)
      .where('client_number', '=', request.clientNumber)
      .where('canceled_at', 'is', null)
      .where('removed_at', 'is', null)
      .executeTakeFirst();

  const shipment = (providerNumber: string) =>
    db.selectFrom('sandbox_shipments').selectAll().where('provider_number', '=', providerNumber).where('provider_key', '=', key).executeTakeFirst();

  const registration = (providerNumber: string, registeredAt: number): Registration => ({
    providerNumber,
    barcode: providerNumber.replace(/\D/g, '').padStart(12, '0'),
    trackingUrl: `https://sandbox.shipdesk.invalid/track/${providerNumber}`,
    registeredAt,
  });

  /** The shipment, if it can still be changed: it exists, is live and has not been handed over. */
  async function changeable(providerNumber: string, what: 'change' | 'cancel' | 'delete') {
    const row = await shipment(providerNumber);
    if (!row) throw new ProviderRejectedError(said('sandbox.noShipment', { service: key, number: providerNumber }), [], 'NOT_FOUND');
    if (!row.canceled_at && !row.removed_at && handedOverBy(row.registered_at, clock.now())) {
      const handedOver = ({ change: 'sandbox.handedOverChange', cancel: 'sandbox.handedOverCancel', delete: 'sandbox.handedOverDelete' } as const)[what];
      throw new ProviderRejectedError(said(handedOver, { service: key, number: providerNumber }), [], 'HANDED_OVER');
    }
    return row;
  }

  const provider: Carrier = {
    info: service.info,

    async check() {
      return []; // the reference data (tariffs, points, services) already covers what it checks up front
    },

    /** Its intake's rules, known before it is asked: the same refusals register would give. */
    reach: (order) => intakeRefusals(key, order, { db, reference }),

    async register(request) {
      const errors = await intakeRefusals(key, request.order, { db, reference });
      if (errors.length) throw refusal(key, 'order', errors);

      const existing = await liveShipment(request);
      if (existing) return registration(existing.provider_number, existing.registered_at);
      // Numbers are the prefix and nine digits, so the highest is found on the primary key in O(log n)
      // (a count grew with every shipment and dominated bulk registration). Read and write in one
      // transaction: the outbox registers several orders at once.
      const now = clock.now();
      const providerNumber = await db.transaction().execute(async (trx) => {
        const { highest } = await trx
          .selectFrom('sandbox_shipments')
          .select((eb) => eb.fn.max('provider_number').as('highest'))
          .where('provider_number', '>=', `${service.numberPrefix}000000000`)
          .where('provider_number', '<=', `${service.numberPrefix}999999999`)
          .executeTakeFirstOrThrow();
        const next = highest ? Number(String(highest).slice(service.numberPrefix.length)) + 1 : 1;
        const number = `${service.numberPrefix}${String(next).padStart(9, '0')}`;
        await trx
          .insertInto('sandbox_shipments')
          .values({
            provider_number: number,
            provider_key: key,
            company_id: request.companyId,
            client_number: request.clientNumber,
            payload: JSON.stringify(request.order),
            registered_at: now,
            canceled_at: null,
            removed_at: null,
          })
          .execute();
        return number;
      });
      return registration(providerNumber, now);
    },

    async find(request) {
      const existing = await liveShipment(request);
      return existing ? registration(existing.provider_number, existing.registered_at) : null;
    },

    async schedule(providerNumbers) {
      const result = new Map<string, { key: StatusKey; at: number }>();
      if (providerNumbers.length === 0) return result;
      const rows = await db
        .selectFrom('sandbox_shipments')
        .select(['provider_number', 'registered_at', 'canceled_at', 'removed_at', 'payload'])
        .where('provider_number', 'in', providerNumbers)
        .where('provider_key', '=', key)
        .execute();
      for (const row of rows) {
        if (row.canceled_at !== null || row.removed_at !== null) continue;
        const order = JSON.parse(row.payload) as OrderCreate;
        const next = nextStatusAfter(row.provider_number, row.registered_at, clock.now(), { deliveryType: order.order.deliveryType, units: unitsOf(order) });
        if (next) result.set(row.provider_number, next);
      }
      return result;
    },

    async track(shipments) {
      const result = new Map<string, ProviderStatus[]>();
      if (shipments.length === 0) return result;
      const rows = await db
        .selectFrom('sandbox_shipments')
        .select(['provider_number', 'registered_at', 'canceled_at', 'removed_at', 'payload'])
        .where('provider_number', 'in', shipments.map((s) => s.providerNumber))
        .where('provider_key', '=', key)
        .execute();
      const now = clock.now();
      for (const row of rows) {
        const order = JSON.parse(row.payload) as OrderCreate;
        const stoppedAt = row.canceled_at ?? row.removed_at;
        const statuses: ProviderStatus[] = statusesAt(row.provider_number, row.registered_at, stoppedAt ?? now, {
          deliveryType: order.order.deliveryType,
          units: unitsOf(order),
        }).map((s) => ({
          key: s.key,
          at: s.at,
          providerCode: s.key.toUpperCase(),
          providerName: statusNames[s.key].ru,
          ...(s.key === 'partialReturn' ? { quantityDelivered: partialDelivery(order) } : {}),
        }));
        if (row.canceled_at !== null && row.canceled_at <= now) {
          statuses.push({ key: 'deliveryCanceled', at: row.canceled_at, providerCode: 'CANCELED', providerName: statusNames.deliveryCanceled.ru });
        }
        result.set(row.provider_number, statuses);
      }
      return result;
    },
  };

  const rates = sandboxRatesOf(service);
  if (rates) provider.rates = rates;
  const intervals = sandboxIntervalsOf(service);
  if (intervals) provider.intervals = intervals;
  const courierCalls = sandboxCourierCalls(service, deps);
  if (courierCalls) provider.courierCalls = courierCalls;
  if (caps.update) {
    provider.update = async (providerNumber, request) => {
      const row = await changeable(providerNumber, 'change');
      if (row.canceled_at || row.removed_at) throw new ProviderRejectedError(said('sandbox.canceledShipment', { service: key, number: providerNumber }), [], 'CANCELED');
      const errors = await intakeRefusals(key, request.order, { db, reference });
      if (errors.length) throw refusal(key, 'changes', errors);
      await db
        .updateTable('sandbox_shipments')
        .set({ payload: JSON.stringify(request.order), client_number: request.clientNumber, updated_at: clock.now() })
        .where('provider_number', '=', providerNumber)
        .execute();
    };
  }
  if (caps.cancel) {
    provider.cancel = async (providerNumber) => {
      const row = await changeable(providerNumber, 'cancel');
      if (row.canceled_at || row.removed_at) return; // already done: a re-sent cancel succeeds
      await db.updateTable('sandbox_shipments').set({ canceled_at: clock.now() }).where('provider_number', '=', providerNumber).execute();
    };
  }
  if (!caps.update && !caps.cancel) {
    provider.remove = async (providerNumber) => {
      const row = await changeable(providerNumber, 'delete');
      if (row.removed_at || row.canceled_at) return;
      await db.updateTable('sandbox_shipments').set({ removed_at: clock.now() }).where('provider_number', '=', providerNumber).execute();
    };
  }
  return provider;
}
