import type { FieldError } from '../../../shared/errors';
import { said } from '../../../shared/messages';
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
      ...said('rule.weightBelowPlaces', { places: placesWeight, order: order.order.weight }),
    });
  }
  order.places.forEach((place, i) => {
    if (place.items.some((item) => item.weight === undefined)) return;
    const itemsWeight = place.items.reduce((sum, item) => sum + (item.weight ?? 0) * item.quantity, 0);
    if (itemsWeight > place.weight + weightTolerance(place.weight)) {
      errors.push({ field: `places.${i}.weight`, ...said('rule.placeBelowItems', { items: itemsWeight }) });
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
        ...said('rule.codTooSmall', { goods: rubles(goods), delivery: rubles(delivery), total: rubles(goods + delivery) }),
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
  if (!provider) return [{ field: 'order.providerKey', ...said('rule.unknownProvider', { name: o.providerKey }) }];
  const errors: FieldError[] = [];
  const caps = provider.info.capabilities;
  const name = provider.info.key;

  if (!caps.deliveryTypes.includes(o.deliveryType)) {
    errors.push({ field: 'order.deliveryType', ...said(o.deliveryType === 1 ? 'rule.noDoorDelivery' : 'rule.noPointDelivery', { name }) });
  }
  if (!caps.pickupTypes.includes(o.pickupType)) {
    errors.push({
      field: 'order.pickupType',
      ...said(o.pickupType === 1 ? 'rule.noDoorPickup' : 'rule.noWarehousePickup', { name }),
    });
  }
  if (order.cost.codCost > 0 && !caps.cod) errors.push({ field: 'cost.codCost', ...said('rule.noCod', { name }) });

  const tariff = await reference.tariff(o.providerKey, o.tariffId);
  if (tariff === null) {
    errors.push({ field: 'order.tariffId', ...said('rule.tariffUnknown', { id: o.tariffId, name }) });
  } else if (tariff) {
    if (tariff.deliveryType !== null && tariff.deliveryType !== o.deliveryType) {
      errors.push({ field: 'order.deliveryType', ...said(tariff.deliveryType === 1 ? 'rule.tariffToDoor' : 'rule.tariffToPoint', { id: tariff.id }) });
    }
    if (tariff.pickupType !== null && tariff.pickupType !== o.pickupType) {
      errors.push({
        field: 'order.pickupType',
        ...said(tariff.pickupType === 1 ? 'rule.tariffFromDoor' : 'rule.tariffFromWarehouse', { id: tariff.id }),
      });
    }
  }

  // Whether a point exists, is open and does the right operation is reference data; whether it takes
  // this parcel (weight, size, cash) the service decides on intake.
  const checkPoint = async (field: 'order.pointOutId' | 'order.pointInId', id: number, role: 'out' | 'in') => {
    const point = await reference.point(o.providerKey, id);
    if (point === null) errors.push({ field, ...said(role === 'out' ? 'rule.pointOutUnknown' : 'rule.pointInUnknown', { id, name }) });
    else if (point) for (const r of pointRefusals(point, {}, role)) errors.push({ field, message: r.message, key: r.key, params: r.params });
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
          errors.push({ field: `extraParams.${param}`, ...(list ? said('rule.noServiceList', { name, param, list }) : said('rule.noService', { name, param })) });
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
