import type { OrderCreateInput } from '../../../shared/schemas/order';

/**
 * A valid Russian Post order, handed over at the connection's post office: to the point `toPoint` ("called for" at a
 * post office with tariff 9301, or to an ECOM pickup point with `ecom`), or, without it, by courier to the door in
 * Moscow (tariff 9302); cash on delivery within the declared value. Override what a test is about.
 */
export function russianPostOrder(clientNumber: string, to: { toPoint?: number; ecom?: boolean } = {}, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const toPoint = to.toPoint !== undefined;
  const payload: OrderCreateInput = {
    order: {
      clientNumber,
      providerKey: 'russian-post',
      deliveryType: toPoint ? 2 : 1,
      pickupType: 2,
      tariffId: toPoint ? (to.ecom ? 9303 : 9301) : 9302,
      ...(toPoint ? { pointOutId: to.toPoint } : {}),
      weight: 1200,
      length: 30,
      width: 20,
      height: 15,
    },
    cost: { assessedCost: 3500, codCost: 3350, deliveryCost: 350 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: { countryCode: 'RU', index: '101001', city: 'Москва', street: 'Мясницкая', house: '10', office: '4', contactName: 'Сидоров Пётр Ильич', phone: '+7 (903) 111-22-33', email: 'petr@example.ru' },
    places: [{ weight: 1200, items: [{ description: 'Кроссовки', articul: 'SN-42', quantity: 1, assessedCost: 3500, cost: 3000, costVat: 20 }] }],
  };
  patch(payload);
  return payload;
}
