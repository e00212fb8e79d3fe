import type { OrderCreateInput } from '../../../shared/schemas/order';

/**
 * A valid 5Post order: from the shop's warehouse (pickupType 1) to point `toPoint` (tariff 9401), cash on delivery.
 * Override what a test is about.
 */
export function fivePostOrder(clientNumber: string, toPoint: number, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const payload: OrderCreateInput = {
    order: { clientNumber, providerKey: 'fivepost', deliveryType: 2, pickupType: 1, tariffId: 9401, pointOutId: toPoint, weight: 1200, length: 30, width: 20, height: 15 },
    cost: { assessedCost: 3000, codCost: 3350, deliveryCost: 350 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: { countryCode: 'RU', city: 'Москва', contactName: 'Пётр Сидоров', phone: '+7 (903) 111-22-33', email: 'petr@example.ru' },
    places: [{ weight: 1200, items: [{ description: 'Кроссовки', articul: 'SN-42', quantity: 1, assessedCost: 3000, cost: 3000, costVat: 20 }] }],
  };
  patch(payload);
  return payload;
}
