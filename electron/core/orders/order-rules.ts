import type { FieldError } from '../../../shared/errors';
import { toKopecks, toRubles } from '../../../shared/money';
import type { OrderCreate } from '../../../shared/schemas/order';
import { pointRefusals } from '../lists/point-checks';
import type { Carrier } from '../providers/provider';
import type { ReferenceData } from './reference-data';

/**
 * The synchronous rules of an order (040002 on POST and PUT alike): what the interface requires up front
 * and what our reference data can tell before anything goes to the delivery service. The schema has
 * already checked types, required fields and pointOutId when deliveryType = 2. What only the delivery
 * service decides (weight limits of a tariff, a point's limits and cash acceptance, the cities it serves)
 * it decides later, asynchronously (uploadingError, errorCode 200).
 *
 * clientNumber uniqueness is checked in the write transaction (order-service), not here.
 */

/** How much more the parts may weigh than their whole (scales differ): 5 %, at least 50 g. */
export const weightTolerance = (grams: number) => Math.max(50, grams * 0.05);

const rubles = (kopecks: number) => toRubles(kopecks).toFixed(2);

/**
 * Weights of places against the order, items against their place. A whole may weigh more than its parts
 * (packaging, filler: no document limits it); parts clearly heavier than their whole are inconsistent data.
 */
export function checkPlaces(order: OrderCreate): FieldError[] {
  const errors: FieldError[] = [];
  const placesWeight = order.places.reduce((sum, p) => sum + p.weight, 0);
  if (placesWeight > order.order.weight + weightTolerance(order.order.weight)) {
    errors.push({
      field: 'order.weight',
      message: `must not be less than the places weigh: they weigh ${placesWeight} g in total, the order says ${order.order.weight} g`,
    });
  }
  order.places.forEach((place, i) => {
    if (place.items.some((item) => item.weight === undefined)) return;
    const itemsWeight = place.items.reduce((sum, item) => sum + (item.weight ?? 0) * item.quantity, 0);
    if (itemsWeight > place.weight + weightTolerance(place.weight)) {
      errors.push({ field: `places.${i}.weight`, message: `is less than its items weigh (${itemsWeight} g)` });
    }
  });
  return errors;
}

/**
 * Cash on delivery: codCost includes deliveryCost (the interface), so when the recipient pays on delivery
 * codCost must cover the goods' cash-on-delivery cost (item.cost × quantity, where given) plus deliveryCost.
 * A prepaid order (codCost 0) is not checked against item costs.
 */
export function checkCod(order: OrderCreate): FieldError[] {
  const cod = toKopecks(order.cost.codCost);
  if (cod === 0) return [];
  const delivery = toKopecks(order.cost.deliveryCost ?? 0);
  const goods = order.places.reduce(
    (sum, place) => sum + place.items.reduce((s, item) => s + (item.cost === undefined ? 0 : toKopecks(item.cost) * item.quantity), 0),
    0,
  );
  if (cod < goods + delivery) {
    return [
      {
        field: 'cost.codCost',
        message: `must cover the goods (${rubles(goods)}) plus deliveryCost (${rubles(delivery)}) = ${rubles(goods + delivery)}`,
      },
    ];
  }
  return [];
}

/**
 * The order against its delivery service's abilities and reference data (tariff, points, extra services).
 * Also turns each extraParams value into its service's valueType (in place), so what is stored is typed.
 */
export async function checkWithService(order: OrderCreate, provider: Carrier | undefined, reference: ReferenceData): Promise<FieldError[]> {
  const o = order.order;
  if (!provider) return [{ field: 'order.providerKey', message: `unknown delivery service ${o.providerKey}` }];
  const errors: FieldError[] = [];
  const caps = provider.info.capabilities;
  const name = provider.info.key;

  if (!caps.deliveryTypes.includes(o.deliveryType)) {
    errors.push({ field: 'order.deliveryType', message: `${name} does not deliver ${o.deliveryType === 1 ? 'to the door' : 'to pickup points'}` });
  }
  if (!caps.pickupTypes.includes(o.pickupType)) {
    errors.push({
      field: 'order.pickupType',
      message: o.pickupType === 1 ? `${name} does not collect from the client's door` : `${name} does not take orders at its warehouse`,
    });
  }
  if (order.cost.codCost > 0 && !caps.cod) errors.push({ field: 'cost.codCost', message: `${name} does not take cash on delivery` });

  const tariff = await reference.tariff(o.providerKey, o.tariffId);
  if (tariff === null) {
    errors.push({ field: 'order.tariffId', message: `tariff ${o.tariffId} is not a tariff of ${name}` });
  } else if (tariff) {
    if (tariff.deliveryType !== null && tariff.deliveryType !== o.deliveryType) {
      errors.push({ field: 'order.deliveryType', message: `tariff ${tariff.id} delivers ${tariff.deliveryType === 1 ? 'to the door (1)' : 'to a pickup point (2)'}` });
    }
    if (tariff.pickupType !== null && tariff.pickupType !== o.pickupType) {
      errors.push({
        field: 'order.pickupType',
        message: `tariff ${tariff.id} ${tariff.pickupType === 1 ? 'collects from the door (1)' : 'expects the order at the warehouse (2)'}`,
      });
    }
  }

  // Whether a point exists, is open and does the right operation is reference data; whether it takes
  // this parcel (weight, size, cash) the service decides on intake.
  const checkPoint = async (field: 'order.pointOutId' | 'order.pointInId', id: number, role: 'out' | 'in') => {
    const point = await reference.point(o.providerKey, id);
    if (point === null) errors.push({ field, message: `${id} is not a ${role === 'out' ? 'pickup point' : 'point'} of ${name}` });
    else if (point) for (const r of pointRefusals(point, {}, role)) errors.push({ field, message: r.message });
  };
  if (o.deliveryType === 2 && o.pointOutId !== undefined) await checkPoint('order.pointOutId', o.pointOutId, 'out');
  if (o.pointInId !== undefined) await checkPoint('order.pointInId', o.pointInId, 'in');

  if (order.extraParams && Object.keys(order.extraParams).length) {
    const services = await reference.services(o.providerKey);
    if (services) {
      const known = new Map(services.map((s) => [s.extraParamName, s]));
      for (const [param, value] of Object.entries(order.extraParams)) {
        const service = known.get(param);
        if (!service) {
          const list = [...known.keys()].join(', ');
          errors.push({ field: `extraParams.${param}`, message: `${name} has no additional service ${param}${list ? ` (it has: ${list})` : ''}` });
        } else {
          const typed = asValueType(service.valueType, value);
          if (typed === undefined) errors.push({ field: `extraParams.${param}`, message: `must be ${valueTypeWords[service.valueType]}` });
          // Stored as its type, so an order sent as XML (<insurance>1</insurance>) reads back as one sent as JSON (true).
          else order.extraParams[param] = typed;
        }
      }
    }
  }

  errors.push(...(await provider.check(order)));
  return errors;
}

const valueTypeWords = { bool: 'true or false (1 or 0)', string: 'text', int: 'a whole number', float: 'a number' } as const;

/**
 * An extra parameter's value as its service's valueType, or undefined when it does not fit. Values arrive
 * as JSON values or, from XML and spreadsheets, as text.
 */
export function asValueType(type: keyof typeof valueTypeWords, value: string | number | boolean): string | number | boolean | undefined {
  const text = String(value).trim();
  switch (type) {
    case 'bool':
      if (typeof value === 'boolean') return value;
      return ['1', 'true'].includes(text) ? true : ['0', 'false'].includes(text) ? false : undefined;
    case 'int':
      return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
    case 'float':
      return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'string':
      return typeof value === 'string' ? value : text;
  }
}

/** Every synchronous rule, in one place for create and update. */
export async function checkOrder(order: OrderCreate, provider: Carrier | undefined, reference: ReferenceData): Promise<FieldError[]> {
  return [...(await checkWithService(order, provider, reference)), ...checkPlaces(order), ...checkCod(order)];
}
