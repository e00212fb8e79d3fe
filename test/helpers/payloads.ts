import type { OrderCreateInput } from '../../shared/schemas/order';

/** A valid order for the sandbox express service, door to door; override what a test is about. */
export function orderPayload(clientNumber = 'SHOP-1001', patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const payload: OrderCreateInput = {
    order: {
      clientNumber,
      providerKey: 'sandbox-express',
      deliveryType: 1,
      pickupType: 1,
      tariffId: 103,
      weight: 1200,
      length: 30,
      width: 20,
      height: 10,
    },
    cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
    sender: {
      countryCode: 'RU',
      city: 'Москва',
      street: 'Тверская',
      house: '7',
      contactName: 'Иван Петров',
      phone: '+79161234567',
      companyName: 'ООО Ромашка',
    },
    recipient: {
      countryCode: 'RU',
      city: 'Санкт-Петербург',
      street: 'Невский проспект',
      house: '28',
      office: '5',
      contactName: 'Анна Смирнова',
      phone: '+79219876543',
      email: 'anna@example.ru',
    },
    places: [
      {
        weight: 1200,
        length: 30,
        width: 20,
        height: 10,
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
