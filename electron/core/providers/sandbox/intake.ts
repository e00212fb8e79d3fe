import type { FieldError } from '../../../../shared/errors';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { fold } from '../../lists/filter';
import { pointRefusals, type Parcel } from '../../lists/point-checks';
import type { StoredReferenceData } from '../../orders/reference-data';
import { tariffWeightRefusals } from '../../orders/service-reach';
import { said } from '../../../../shared/messages';

/**
 * What a sandbox service's own intake refuses, as a real service would after accepting the request:
 * the order then ends in uploadingError with errorCode 200. The same rules run on register and update.
 * (What the interface requires up front is checked synchronously in orders/order-rules.ts.)
 */

/** Cities a sandbox service's couriers reach (door delivery). Pickup-point delivery reaches the cities of its points. */
export const doorCities: Record<string, string[]> = {
  'sandbox-express': [
    'Москва', 'Санкт-Петербург', 'Новосибирск', 'Екатеринбург', 'Казань', 'Нижний Новгород', 'Челябинск', 'Самара', 'Ростов-на-Дону',
    'Уфа', 'Краснодар', 'Воронеж', 'Пермь', 'Балашиха', 'Подольск', 'Химки',
  ],
  'sandbox-post': ['Москва', 'Санкт-Петербург', 'Новосибирск', 'Екатеринбург', 'Казань', 'Нижний Новгород', 'Самара', 'Омск', 'Тула', 'Калининград'],
  'sandbox-lockers': [],
};

/** The city named in a free-form address, among the given ones. */
const cityInAddress = (address: string, cities: string[]) =>
  cities.find((c) => new RegExp(`(^|[^а-яa-z])${fold(c)}([^а-яa-z-]|$)`).test(fold(address)));

/** The service's refusals of an order (empty when it takes it). */
export async function intakeRefusals(providerKey: string, order: OrderCreate, reference: StoredReferenceData): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const o = order.order;

  const tariff = await reference.tariff(providerKey, o.tariffId);
  if (!tariff) {
    errors.push({ field: 'order.tariffId', ...said('rule.tariffMissing', { id: o.tariffId, name: providerKey }) });
  } else errors.push(...tariffWeightRefusals(tariff, o.weight));

  if (o.deliveryType === 2 && o.pointOutId !== undefined) {
    const point = await reference.point(providerKey, o.pointOutId);
    if (!point) {
      errors.push({ field: 'order.pointOutId', ...said('rule.pointMissing', { id: o.pointOutId, name: providerKey }) });
    } else {
      const whole: Parcel = { weight: o.weight, length: o.length, width: o.width, height: o.height, codCost: order.cost.codCost };
      const refusals = new Map(pointRefusals(point, whole, 'out').map((r) => [r.message, r]));
      // Each place travels on its own (a locker cell per place): it must fit too.
      order.places.forEach((place) => {
        const parcel: Parcel = { weight: place.weight, length: place.length, width: place.width, height: place.height };
        for (const r of pointRefusals(point, parcel, 'out')) if (r.reason === 'size' || r.reason === 'weight') refusals.set(r.message, r);
      });
      for (const { message, key, params } of refusals.values()) errors.push({ field: 'order.pointOutId', message, key, params });
    }
  }

  const { city, addressString } = order.recipient;
  if (o.deliveryType === 2) {
    // A pickup point fixes the city; a recipient city the service has no point in is not one it serves.
    if (city && !(await reference.hasPointIn(providerKey, city))) {
      errors.push({ field: 'recipient.city', ...said('rule.noPointsInCity', { name: providerKey, city }) });
    }
  } else {
    const door = doorCities[providerKey] ?? [];
    const named = city ?? cityInAddress(addressString ?? '', door);
    if (!named) {
      errors.push({ field: 'recipient.addressString', ...said('rule.noDoorAtAddress', { name: providerKey, cities: door.join(', ') }) });
    } else if (!door.some((c) => fold(c) === fold(named.trim()))) {
      errors.push({ field: 'recipient.city', ...said('rule.noDoorInCity', { name: providerKey, city: named }) });
    }
  }
  return errors;
}
