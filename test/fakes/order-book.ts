import type { OrderCreateInput } from '../../shared/schemas/order';

/** Where a fake service's order goes: its service, tariff, and the points it is handed over at and delivered to. */
export interface OrderRoute {
  providerKey: string;
  tariffId: number;
  /** The point the shop hands the parcel over at; none → the service's own office of the connection. */
  pointInId?: number;
  /** The pickup point it goes to; none → by courier to the door (deliveryType 1). */
  pointOutId?: number;
}

/**
 * The order book the fakes' tests share: one valid shop order of a pair of sneakers from Moscow to Moscow, 1.2 kg,
 * cash on delivery, on the given route. Each service's file names its route and tariffs; `patch` changes what a test
 * is about.
 */
export function shopOrder(clientNumber: string, route: OrderRoute, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const toPoint = route.pointOutId !== undefined;
  const payload: OrderCreateInput = {
    order: {
      clientNumber,
      providerKey: route.providerKey,
      deliveryType: toPoint ? 2 : 1,
      pickupType: 2,
      tariffId: route.tariffId,
      ...(route.pointInId !== undefined ? { pointInId: route.pointInId } : {}),
      ...(toPoint ? { pointOutId: route.pointOutId } : {}),
      weight: 1200,
      length: 30,
      width: 20,
      height: 15,
    },
    cost: { assessedCost: 3000, codCost: 3350, deliveryCost: 350 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: { countryCode: 'RU', index: '101000', city: 'Москва', street: 'Мясницкая', house: '10', office: '4', contactName: 'Пётр Сидоров', phone: '+7 (903) 111-22-33', email: 'petr@example.ru' },
    places: [{ weight: 1200, items: [{ description: 'Кроссовки', articul: 'SN-42', quantity: 1, assessedCost: 3000, cost: 3000, costVat: 20 }] }],
  };
  patch(payload);
  return payload;
}

/** Declares the order's (and its one item's) value: a service that collects cash only within it needs it high enough. */
export function declareValue(order: OrderCreateInput, assessedCost: number): void {
  order.cost.assessedCost = assessedCost;
  order.places[0].items[0].assessedCost = assessedCost;
}
