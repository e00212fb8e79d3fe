import type { OrderCreateInput } from '../../../shared/schemas/order';

/** A valid CDEK order, door to door (tariff 139), cash on delivery; override what a test is about. */
export function cdekOrder(clientNumber: string, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const payload: OrderCreateInput = {
    order: { clientNumber, providerKey: 'cdek', deliveryType: 1, pickupType: 1, tariffId: 139, weight: 800, length: 30, width: 20, height: 10 },
    cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: { countryCode: 'RU', city: 'Санкт-Петербург', street: 'Невский проспект', house: '28', office: '5', contactName: 'Анна Смирнова', phone: '+79219876543' },
    places: [
      {
        weight: 800,
        items: [
          { description: 'Футболка', articul: 'TS-01', quantity: 2, assessedCost: 1000, cost: 1000, weight: 300 },
          { description: 'Кепка', articul: 'CP-02', quantity: 1, assessedCost: 500, cost: 500, weight: 200 },
        ],
      },
    ],
  };
  patch(payload);
  return payload;
}

