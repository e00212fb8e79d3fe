import type { OrderCreateInput } from '../../../shared/schemas/order';

/**
 * A valid Boxberry order: handed over at point `pointInId`, to point `toPoint` (tariff 9201) or, without it, by
 * courier to the door in Moscow (tariff 9202); cash on delivery. Override what a test is about.
 */
export function boxberryOrder(clientNumber: string, points: { pointInId: number; toPoint?: number }, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const toPoint = points.toPoint !== undefined;
  const payload: OrderCreateInput = {
    order: {
      clientNumber,
      providerKey: 'boxberry',
      deliveryType: toPoint ? 2 : 1,
      pickupType: 2,
      tariffId: toPoint ? 9201 : 9202,
      pointInId: points.pointInId,
      ...(toPoint ? { pointOutId: points.toPoint } : {}),
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
