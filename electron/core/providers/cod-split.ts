import type { FieldError } from '../../../shared/errors';
import { toKopecks, toRubles } from '../../../shared/money';
import type { OrderCreate } from '../../../shared/schemas/order';

/** How cash on delivery splits for a service that collects per item plus a delivery charge (kopecks). */
export interface CodSplit {
  deliveryRecipientCost: number;
  /** [place][item] → COD per unit. */
  perUnit: number[][];
}

/**
 * Services that collect `unit price × quantity` per item plus a delivery charge from the recipient (CDEK, Yandex
 * Delivery) need our codCost split into those parts. The split must be exact to the kopeck, so a payload whose parts
 * do not add up is refused, never rounded. `service` names the service in the messages.
 */
export function splitCod(order: OrderCreate, service: string): { split: CodSplit } | { errors: FieldError[] } {
  const cod = toKopecks(order.cost.codCost);
  const zero = order.places.map((p) => p.items.map(() => 0));
  if (cod === 0) return { split: { deliveryRecipientCost: 0, perUnit: zero } };
  const perUnit = order.places.map((p) => p.items.map((i) => toKopecks(i.cost ?? 0)));
  const goods = order.places.reduce((sum, p, pi) => sum + p.items.reduce((s, i, ii) => s + perUnit[pi][ii] * i.quantity, 0), 0);
  const delivery = order.cost.deliveryCost !== undefined ? toKopecks(order.cost.deliveryCost) : cod - goods;
  if (goods === 0 && delivery === cod) return { split: { deliveryRecipientCost: delivery, perUnit: zero } };
  if (goods === 0) {
    return { errors: [{ field: 'places.0.items.0.cost', message: `${service} collects cash on delivery per item: give every item its cost (cash per unit)` }] };
  }
  if (delivery < 0 || goods + delivery !== cod) {
    return {
      errors: [{
        field: 'cost.codCost',
        message: `must equal the items' cost × quantity (${toRubles(goods)}) plus deliveryCost (${toRubles(Math.max(delivery, 0))}) for ${service}`,
      }],
    };
  }
  return { split: { deliveryRecipientCost: delivery, perUnit } };
}
