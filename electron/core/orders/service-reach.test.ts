import type { Tariff } from '../../../shared/schemas/lists';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import type { Quote, QuoteRequest } from '../calculator/pricing-provider';
import type { Carrier } from '../providers/provider';
import { createProviderRegistry } from '../providers/registry';
import type { ReferenceData } from './reference-data';
import { createServiceReach } from './service-reach';

/** A service known only by its rates: door delivery to Moscow alone, tariff 7 up to 5 kg. */
function carrier(asked: QuoteRequest[], fail = false): Carrier {
  return {
    info: { key: 'rates-only', name: 'Rates only', description: '', capabilities: { deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true } },
    rates: async (request: QuoteRequest) => {
      asked.push(request);
      if (fail) throw new Error('connect ECONNREFUSED');
      return request.to.city === 'Москва' ? [{ tariffId: 7, deliveryType: 1, pickupType: 1 } as Quote] : [];
    },
  } as unknown as Carrier;
}

const order = (city: string, weight = 1000) =>
  orderCreateSchema.parse(
    orderPayload('R-1', (o) => {
      Object.assign(o.order, { providerKey: 'rates-only', tariffId: 7, deliveryType: 1, pickupType: 1, weight });
      o.places[0].weight = weight;
      Object.assign(o.recipient, { city, region: city, addressString: undefined });
    }),
  );

const tariff: Tariff = { id: 7, providerKey: 'rates-only', name: 'Дверь', description: null, aliasName: null, weightMin: 1, weightMax: 5000, pickupType: 1, deliveryType: 1, paymentCash: 1 };
const reference: ReferenceData = { tariff: async () => tariff, point: async () => null, services: async () => [] };
const clock = { now: () => Date.UTC(2026, 10, 25, 9) };

describe('what a service known by its rates will refuse', () => {
  it('a city its rates do not offer the tariff to, and a parcel over the tariff\'s weight; rates asked once per route', async () => {
    const asked: QuoteRequest[] = [];
    const reach = createServiceReach({ providers: createProviderRegistry([carrier(asked)]), reference, clock });
    expect(await reach(order('Москва'))).toEqual([]);
    expect(await reach(order('Москва'))).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(await reach(order('Омск'))).toMatchObject([{ field: 'recipient.city', message: 'rates-only does not deliver to the door in Омск with tariff 7' }]);
    expect(await reach(order('Москва', 6000))).toMatchObject([{ field: 'order.weight', message: '6000 g is over the limit of tariff 7 (5000 g)' }]);
  });

  it('a service that does not answer leaves the order to be judged when it is sent', async () => {
    const reach = createServiceReach({ providers: createProviderRegistry([carrier([], true)]), reference, clock });
    expect(await reach(order('Омск'))).toEqual([]);
  });
});
