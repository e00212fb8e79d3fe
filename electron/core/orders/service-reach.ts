import type { FieldError } from '../../../shared/errors';
import { toKopecks } from '../../../shared/money';
import type { Tariff } from '../../../shared/schemas/lists';
import type { Address, OrderCreate } from '../../../shared/schemas/order';
import { localDate } from '../calculator/calendar';
import { distanceBetween, resolvePlace } from '../calculator/geo';
import type { QuoteRequest } from '../calculator/pricing-provider';
import type { Clock } from '../clock';
import { pointRefusals, type Parcel } from '../lists/point-checks';
import type { Carrier } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { ReferenceData } from './reference-data';
import { said } from '../../../shared/messages';

/**
 * Whether the delivery service will take an order, as far as the app can tell before sending it: the
 * import check (the wizard's dry run and run) asks this of every order, so a file reaches "ready" only for
 * the rows the service accepts. POST /orders does not: there the service decides later (uploadingError),
 * as the interface has it. A service that knows its own rules says them (`Carrier.reach`); any other is
 * judged as the price comparison judges it: its tariff's weight limits, the points' limits, and whether
 * its rates offer the tariff between these two places at all.
 */

/** A tariff's weight limits against the order's weight. */
export function tariffWeightRefusals(tariff: Tariff, grams: number): FieldError[] {
  if (tariff.weightMax !== null && grams > tariff.weightMax) return [{ field: 'order.weight', ...said('rule.tariffOverWeight', { weight: grams, id: tariff.id, max: tariff.weightMax }) }];
  if (tariff.weightMin !== null && grams < tariff.weightMin) return [{ field: 'order.weight', ...said('rule.tariffUnderWeight', { weight: grams, id: tariff.id, min: tariff.weightMin }) }];
  return [];
}

const placeOf = (a: Address) => ({ countryCode: a.countryCode, index: a.index, addressString: a.addressString, region: a.region, city: a.city, lat: a.lat, lng: a.lng });

export function createServiceReach(deps: { providers: ProviderRegistry; reference: ReferenceData; clock: Clock }) {
  /** Rates asked once per service, tariff, route and parcel within one check of a file. */
  const asked = new Map<string, Promise<boolean | undefined>>();

  /** Whether the service's rates offer the order's tariff between its places; undefined when the service did not answer. */
  function offered(carrier: Carrier, order: OrderCreate): Promise<boolean | undefined> {
    const from = resolvePlace(placeOf(order.sender));
    const to = resolvePlace(placeOf(order.recipient));
    const request: QuoteRequest = {
      from,
      to,
      distanceKm: distanceBetween(from, to),
      places: order.places.map((p) => ({ weight: p.weight, length: p.length, width: p.width, height: p.height })),
      assessedKopecks: toKopecks(order.cost.assessedCost),
      codKopecks: toKopecks(order.cost.codCost),
      pickupDate: localDate(deps.clock.now()),
    };
    const key = JSON.stringify([carrier.info.key, order.order.tariffId, from.city, to.city, order.recipient.addressString, request.places, request.codKopecks > 0]);
    let answer = asked.get(key);
    if (!answer) {
      answer = carrier.rates!(request).then(
        (quotes) => quotes.some((q) => q.tariffId === order.order.tariffId),
        () => undefined, // no answer now: the service decides when the order is sent
      );
      asked.set(key, answer);
    }
    return answer;
  }

  return async function reach(order: OrderCreate): Promise<FieldError[]> {
    const o = order.order;
    const carrier = deps.providers.get(o.providerKey);
    if (!carrier) return [];
    if (carrier.reach) return carrier.reach(order);

    const errors: FieldError[] = [];
    const tariff = await deps.reference.tariff(o.providerKey, o.tariffId);
    if (tariff) errors.push(...tariffWeightRefusals(tariff, o.weight));
    const whole: Parcel = { weight: o.weight, length: o.length, width: o.width, height: o.height, codCost: order.cost.codCost };
    const points = [
      ['order.pointOutId', o.deliveryType === 2 ? o.pointOutId : undefined, 'out'],
      ['order.pointInId', o.pointInId, 'in'],
    ] as const;
    for (const [field, id, role] of points) {
      if (id === undefined) continue;
      const point = await deps.reference.point(o.providerKey, id);
      if (!point) continue; // the order's rules report an unknown point
      // closed or the wrong operation: the order's rules say it already
      for (const r of pointRefusals(point, role === 'in' ? { ...whole, codCost: 0 } : whole, role)) if (r.reason !== 'disabled' && r.reason !== 'operation') errors.push({ field, message: r.message, key: r.key, params: r.params });
    }
    if (errors.length === 0 && carrier.rates && (await offered(carrier, order)) === false) {
      const { city, addressString } = order.recipient;
      const where = city ?? addressString ?? '';
      errors.push({
        field: city ? 'recipient.city' : 'recipient.addressString',
        ...said(o.deliveryType === 1 ? 'rule.noDoorRoute' : 'rule.noPointRoute', { name: o.providerKey, where, id: o.tariffId }),
      });
    }
    return errors;
  };
}

export type ServiceReach = ReturnType<typeof createServiceReach>;
