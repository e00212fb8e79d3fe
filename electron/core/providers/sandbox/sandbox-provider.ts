import type { FieldError } from '../../../../shared/errors';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Clock } from '../../clock';
import type { Db } from '../../store/database';
import { ProviderRejectedError, type DeliveryProvider, type ProviderStatus, type Registration, type ShipmentRequest } from '../provider';
import type { SandboxService } from './catalog';
import { statusesAt } from './timeline';
import { statusNames } from '../../../../shared/status-keys';

/** Checks a payload the way the sandbox service's own intake would. */
export function checkAgainstService(service: SandboxService, order: OrderCreate): FieldError[] {
  const errors: FieldError[] = [];
  const tariff = service.tariffs.find((t) => t.id === order.order.tariffId);
  if (!tariff) {
    errors.push({ field: 'order.tariffId', message: `tariff ${order.order.tariffId} is not offered by ${service.info.key}` });
    return errors;
  }
  if (tariff.deliveryType !== order.order.deliveryType) {
    errors.push({ field: 'order.deliveryType', message: `tariff ${tariff.id} delivers ${tariff.deliveryType === 1 ? 'to the door' : 'to a pickup point'}` });
  }
  if (tariff.pickupType !== order.order.pickupType) {
    errors.push({ field: 'order.pickupType', message: `tariff ${tariff.id} expects pickupType ${tariff.pickupType}` });
  }
  if (order.cost.codCost > 0 && !service.info.capabilities.cod) {
    errors.push({ field: 'cost.codCost', message: `${service.info.key} does not take cash on delivery` });
  }
  return errors;
}

/**
 * A built-in test delivery service. It keeps its own books in sandbox_shipments, as a real service
 * would on its side, so "does this clientNumber exist there?" has a true answer across restarts.
 */
export function createSandboxProvider(service: SandboxService, deps: { db: Db; clock: Clock }): DeliveryProvider {
  const { db, clock } = deps;
  const key = service.info.key;

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

  const registration = (providerNumber: string): Registration => ({
    providerNumber,
    barcode: providerNumber.replace(/\D/g, '').padStart(12, '0'),
    trackingUrl: `https://sandbox.shipdesk.invalid/track/${providerNumber}`,
  });

  return {
    info: service.info,

    async check(order) {
      return checkAgainstService(service, order);
    },

    async register(request) {
      const errors = checkAgainstService(service, request.order);
      const tariff = service.tariffs.find((t) => t.id === request.order.order.tariffId);
      if (tariff && request.order.order.weight > tariff.weightMax) {
        errors.push({ field: 'order.weight', message: `${request.order.order.weight} g is over the tariff's limit of ${tariff.weightMax} g` });
      }
      if (errors.length) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);

      const existing = await liveShipment(request);
      if (existing) return registration(existing.provider_number);
      const { count } = await db
        .selectFrom('sandbox_shipments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('provider_key', '=', key)
        .executeTakeFirstOrThrow();
      const providerNumber = `${service.numberPrefix}${String(Number(count) + 1).padStart(9, '0')}`;
      await db
        .insertInto('sandbox_shipments')
        .values({
          provider_number: providerNumber,
          provider_key: key,
          company_id: request.companyId,
          client_number: request.clientNumber,
          payload: JSON.stringify(request.order),
          registered_at: clock.now(),
          canceled_at: null,
          removed_at: null,
        })
        .execute();
      return registration(providerNumber);
    },

    async find(request) {
      const existing = await liveShipment(request);
      return existing ? registration(existing.provider_number) : null;
    },

    async track(shipments) {
      const result = new Map<string, ProviderStatus[]>();
      if (shipments.length === 0) return result;
      const rows = await db
        .selectFrom('sandbox_shipments')
        .select(['provider_number', 'registered_at', 'canceled_at'])
        .where('provider_number', 'in', shipments.map((s) => s.providerNumber))
        .execute();
      const now = clock.now();
      for (const row of rows) {
        const until = row.canceled_at ?? now;
        const statuses: ProviderStatus[] = statusesAt(row.provider_number, row.registered_at, until).map((s) => ({
          key: s.key,
          at: s.at,
          providerCode: s.key.toUpperCase(),
          providerName: statusNames[s.key].ru,
        }));
        result.set(row.provider_number, statuses);
      }
      return result;
    },
  };
}
