import type { OrderCreateInput } from '../../../shared/schemas/order';

/**
 * A valid Yandex Delivery order: handed over at drop-off point `pointInId`, to the door in Moscow (tariff 9101), cash
 * on delivery. `toPoint` sends it to a pickup point instead (tariff 9102). Override what a test is about.
 */
export function yandexOrder(clientNumber: string, points: { pointInId: number; toPoint?: number }, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const toPoint = points.toPoint !== undefined;
  const payload: OrderCreateInput = {
    order: {
      clientNumber,
      providerKey: 'yandex-delivery',
      deliveryType: toPoint ? 2 : 1,
      pickupType: 2,
      tariffId: toPoint ? 9102 : 9101,
      pointInId: points.pointInId,
      ...(toPoint ? { pointOutId: points.toPoint } : {}),
      weight: 800,
      length: 30,
      width: 20,
      height: 10,
      comment: 'Позвонить за час',
    },
    cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: { countryCode: 'RU', index: '125167', city: 'Москва', street: 'Ленинградский проспект', house: '37', block: '9', office: '12', contactName: 'Анна Смирнова', phone: '+7 (921) 987-65-43', email: 'anna@example.ru' },
    places: [
      {
        weight: 800,
        items: [
          { description: 'Футболка', articul: 'TS-01', quantity: 2, assessedCost: 1000, cost: 1000, weight: 300, costVat: 20 },
          { description: 'Кепка', articul: 'CP-02', quantity: 1, assessedCost: 500, cost: 500, weight: 200, costVat: 20 },
        ],
      },
    ],
  };
  patch(payload);
  return payload;
}
