import type { FieldError } from '../../../../shared/errors';
import { fieldReasons, said } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { statusNames, type StatusKey } from '../../../../shared/status-keys';
import type { Clock } from '../../clock';
import { silentLogger, type Logger } from '../../logger';
import { loggedCall } from '../../logging/service-call';
import type { StoredReferenceData } from '../../orders/reference-data';
import type { SandboxStore } from '../../store/sandbox/sandbox-store';
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
 * A built-in test delivery service. It keeps its own books (the sandbox store), as a real service
 * would on its side, so "does this clientNumber exist there?" has a true answer across restarts.
 * Its intake refuses bad data after the fact (intake.ts); once a parcel is handed over (the timeline's
 * onPointIn) it no longer changes, cancels or deletes it. Which of update / cancel / remove it offers
 * follows its capabilities: express updates and cancels, lockers only cancel, post does neither and
 * deletes instead.
 */
export function createSandboxProvider(service: SandboxService, deps: { store: SandboxStore; clock: Clock; reference: StoredReferenceData; log?: Logger }): Carrier {
  const { store, clock, reference } = deps;
  const key = service.info.key;
  const caps = service.info.capabilities;

  const liveShipment = (request: ShipmentRequest) => store.liveShipment(key, request.companyId, request.clientNumber);
  const shipment = (providerNumber: string) => store.shipment(key, providerNumber);

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
    if (!row.canceledAt && !row.removedAt && handedOverBy(row.registeredAt, clock.now())) {
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
    reach: (order) => intakeRefusals(key, order, reference),

    async register(request) {
      const errors = await intakeRefusals(key, request.order, reference);
      if (errors.length) throw refusal(key, 'order', errors);

      const existing = await liveShipment(request);
      if (existing) return registration(existing.providerNumber, existing.registeredAt);
      const now = clock.now();
      const providerNumber = await store.register(
        { providerKey: key, companyId: request.companyId, clientNumber: request.clientNumber, order: request.order, registeredAt: now },
        service.numberPrefix,
      );
      return registration(providerNumber, now);
    },

    async find(request) {
      const existing = await liveShipment(request);
      return existing ? registration(existing.providerNumber, existing.registeredAt) : null;
    },

    async schedule(providerNumbers) {
      const result = new Map<string, { key: StatusKey; at: number }>();
      for (const row of await store.shipments(key, providerNumbers)) {
        if (row.canceledAt !== null || row.removedAt !== null) continue;
        const { order } = row;
        const next = nextStatusAfter(row.providerNumber, row.registeredAt, clock.now(), { deliveryType: order.order.deliveryType, units: unitsOf(order) });
        if (next) result.set(row.providerNumber, next);
      }
      return result;
    },

    async track(shipments) {
      const result = new Map<string, ProviderStatus[]>();
      const rows = await store.shipments(key, shipments.map((s) => s.providerNumber));
      const now = clock.now();
      for (const row of rows) {
        const { order } = row;
        const stoppedAt = row.canceledAt ?? row.removedAt;
        const statuses: ProviderStatus[] = statusesAt(row.providerNumber, row.registeredAt, stoppedAt ?? now, {
          deliveryType: order.order.deliveryType,
          units: unitsOf(order),
        }).map((s) => ({
          key: s.key,
          at: s.at,
          providerCode: s.key.toUpperCase(),
          providerName: statusNames[s.key].ru,
          ...(s.key === 'partialReturn' ? { quantityDelivered: partialDelivery(order) } : {}),
        }));
        if (row.canceledAt !== null && row.canceledAt <= now) {
          statuses.push({ key: 'deliveryCanceled', at: row.canceledAt, providerCode: 'CANCELED', providerName: statusNames.deliveryCanceled.ru });
        }
        result.set(row.providerNumber, statuses);
      }
      return result;
    },
  };

  const rates = sandboxRatesOf(service);
  if (rates) provider.rates = rates;
  const intervals = sandboxIntervalsOf(service);
  if (intervals) provider.intervals = intervals;
  const courierCalls = sandboxCourierCalls(service, { reference, clock });
  if (courierCalls) provider.courierCalls = courierCalls;
  if (caps.update) {
    provider.update = async (providerNumber, request) => {
      const row = await changeable(providerNumber, 'change');
      if (row.canceledAt || row.removedAt) throw new ProviderRejectedError(said('sandbox.canceledShipment', { service: key, number: providerNumber }), [], 'CANCELED');
      const errors = await intakeRefusals(key, request.order, reference);
      if (errors.length) throw refusal(key, 'changes', errors);
      await store.update(providerNumber, { order: request.order, clientNumber: request.clientNumber }, clock.now());
    };
  }
  if (caps.cancel) {
    provider.cancel = async (providerNumber) => {
      const row = await changeable(providerNumber, 'cancel');
      if (row.canceledAt || row.removedAt) return; // already done: a re-sent cancel succeeds
      await store.cancel(providerNumber, clock.now());
    };
  }
  if (!caps.update && !caps.cancel) {
    provider.remove = async (providerNumber) => {
      const row = await changeable(providerNumber, 'delete');
      if (row.removedAt || row.canceledAt) return;
      await store.remove(providerNumber, clock.now());
    };
  }
  return withCallLog(provider, (deps.log ?? silentLogger).child({ service: key }), `sandbox://${key}`);
}

/**
 * The service's calls about shipments, each logged as a service call (one line, as the HTTP services' transport
 * logs theirs), with the company and order when the call is about one.
 */
function withCallLog(provider: Carrier, log: Logger, address: string): Carrier {
  const call = <T>(operation: string, request: ShipmentRequest | null, run: () => Promise<T>) =>
    loggedCall(request ? log.child({ companyId: request.companyId, orderId: request.orderId }) : log, { method: operation, url: `${address}/${operation}` }, run);
  const { update, cancel, remove, schedule } = provider;
  return {
    ...provider,
    register: (request) => call('register', request, () => provider.register(request)),
    find: (request) => call('find', request, () => provider.find(request)),
    track: (shipments) => call('track', null, () => provider.track(shipments)),
    ...(schedule && { schedule: (numbers: string[]) => call('schedule', null, () => schedule(numbers)) }),
    ...(update && { update: (number: string, request: ShipmentRequest) => call('update', request, () => update(number, request)) }),
    ...(cancel && { cancel: (number: string, request: ShipmentRequest) => call('cancel', request, () => cancel(number, request)) }),
    ...(remove && { remove: (number: string, request: ShipmentRequest) => call('remove', request, () => remove(number, request)) }),
  };
}
