import { orderCreateSchema } from '../../../shared/schemas/order';
import { formatTimestamp } from '../../../shared/time';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { stepsFor } from '../providers/sandbox/timeline';
import type { CallContext } from '../companies/company-service';
import { nextTestChange } from './next-change';

const hour = 3_600_000;

describe('when the next status change is due at a test service', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const next = (orderId?: string, ctx: CallContext = env.shop) => nextTestChange({ store: env.app.stores.orders, providers: env.app.providers }, ctx, orderId);
  const create = async (clientNumber: string) => (await env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber)))).orderId;
  const providerNumber = async (orderId: string) =>
    (await env.app.db.selectFrom('orders').select('provider_number').where('id', '=', Number(orderId)).executeTakeFirstOrThrow()).provider_number!;

  it('follows the service\'s schedule, order by order, and says nothing once an order has reached its end', async () => {
    expect(await next()).toEqual({ next: null });
    const first = await create('N-1');
    await env.app.outbox.drain();
    const registeredAt = env.clock.now();
    // Five hours after registration the service takes the parcel.
    expect(await next(first)).toEqual({ next: { orderId: first, clientNumber: 'N-1', statusKey: 'onPointIn', at: formatTimestamp(registeredAt + 5 * hour) } });

    env.clock.advance(2 * hour);
    const second = await create('N-2');
    await env.app.outbox.drain();
    // The company's soonest change is still the first order's.
    expect((await next())?.next?.orderId).toBe(first);

    env.clock.advance(4 * hour);
    await env.app.services.statusRefresh.refresh({ companyId: env.shop.companyId });
    expect(await next(first)).toMatchObject({ next: { statusKey: 'onWay', at: formatTimestamp(registeredAt + 18 * hour) } });
    expect((await next())?.next).toMatchObject({ orderId: second, statusKey: 'onPointIn' });

    const path = stepsFor(await providerNumber(first), { deliveryType: 1, units: 2 });
    env.clock.set(registeredAt + path.at(-1)![1] * hour + hour);
    await env.app.services.statusRefresh.refresh({ companyId: env.shop.companyId });
    expect(await next(first)).toEqual({ next: null });
  });

  it('another company\'s orders are not told about', async () => {
    const orderId = await create('N-1');
    await env.app.outbox.drain();
    const other = await env.app.services.companies.ensureWithToken('other-shop-token', 'Other');
    expect(await next(orderId, other)).toEqual({ next: null });
    expect(await next(undefined, other)).toEqual({ next: null });
    expect(await next('not-a-number')).toEqual({ next: null });
  });
});
