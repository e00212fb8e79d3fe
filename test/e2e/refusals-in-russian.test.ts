import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { manualClock } from '../../electron/core/clock';
import { syncCarrierPoints } from '../../electron/core/lists/carrier-reference';
import { createRussianPostClient } from '../../electron/core/providers/russian-post/client';
import { createRussianPostProvider, type RussianPostProvider } from '../../electron/core/providers/russian-post/russian-post-provider';
import { createPostTracking } from '../../electron/core/providers/russian-post/tracking';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { russianPostOrder } from '../fakes/russian-post/orders';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_TRACKING, FAKE_POST_USER_KEY, startFakeRussianPost, type FakeRussianPost } from '../fakes/russian-post/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { settled } from '../helpers/settled';
import { bulkCancel, chooseRussian, createdOrder } from './russian-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const hour = 60 * 60 * 1000;
/** English the core used to send the window for these refusals: none of it may reach a Russian screen. */
const english = /\b(cannot|refused|already|canceled|registered|transfer|is not|point|Russian Post|Bad request|VALIDATION)\b/;

describe('browser mode in Russian: refusals say why, by key, with the service named', () => {
  const clock = manualClock(Date.now());
  let fake: FakeRussianPost;
  let post!: RussianPostProvider;
  let session: Session;
  let shop: Caller;
  let page: Page;

  const create = (payload: OrderCreateInput) => createdOrder(session.running, shop, payload);

  beforeAll(async () => {
    fake = await startFakeRussianPost({ now: clock.now });
    session = await openBrowserMode({
      locale: 'ru-RU',
      appOptions: {
        clock,
        // Russian Post against its fake over HTTP, beside the built-in test services.
        providers: ({ reference }) => {
          const transport = { clock, timeoutMs: 5_000 };
          const client = createRussianPostClient({ ...transport, baseUrl: fake.url, accessToken: FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY });
          const tracking = createPostTracking({ ...transport, singleUrl: fake.trackingUrls.single, batchUrl: fake.trackingUrls.batch, ...FAKE_POST_TRACKING });
          post = createRussianPostProvider({ client, tracking, reference, postofficeCode: FAKE_POST_OFFICE });
          return [post];
        },
      },
    });
    page = session.page;
    shop = await session.running.app.desktopContext();
    await syncCarrierPoints({ reference: session.running.app.stores.reference, clock }, post.referenceData.points);
    await chooseRussian(page, session.running, shop);
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('a bulk cancel names each refused order with its own reason in Russian, not «В запросе есть ошибки»', async () => {
    const { app } = session.running;
    await create(orderPayload('5001'));
    await create(await sandboxPayload(app.db, 'sandbox-post', '5002'));
    const canceledBefore = await create(orderPayload('5003'));
    await app.outbox.drain();
    await app.services.orders.cancel(shop, canceledBefore);
    await app.outbox.drain();
    // 5001 is handed over to the express service by now (its status moves on the service's clock)
    clock.advance(6 * hour);
    await create(orderPayload('5004'));
    await app.outbox.drain();
    await app.services.statusRefresh.refresh({ companyId: shop.companyId });

    const result = await bulkCancel(page, ['5001', '5002', '5003', '5004']);
    await screenshot(page, 'refusals-bulk-cancel-ru');

    await expect(result.getByTestId('bulk-result-ok').textContent()).resolves.toBe('Выполнено: 1');
    const refused = await result.getByTestId('bulk-result-failure').allInnerTexts();
    expect(refused).toEqual([
      expect.stringMatching(/^Заказ 5001 \([^)]+\): Заказ 5001 уже передан службе доставки \(статус «[А-Яа-яё ]+»\); его больше нельзя отменить$/),
      expect.stringMatching(/^Заказ 5002 \([^)]+\): Песочница.* не может отменить уже переданный заказ: удалите его \(при повторной передаче он получит новый трек-номер\)$/),
      'Заказ 5003 (Отменён): Заказ 5003 уже отменён',
    ]);
    for (const line of refused) {
      expect(line).not.toContain('В запросе есть ошибки');
      expect(line.match(english)?.[0]).toBeUndefined();
    }
    await page.keyboard.press('Escape');
    await result.getByTestId('bulk-result-ok').waitFor({ state: 'hidden' });
  });

  it('Russian Post refuses a parcel "called for" at a locker: the draft says why in Russian, the service named «Почта России»', async () => {
    const { app } = session.running;
    const locker = fake.points().find((p) => p['delivery-point-type'] === 'PARCEL_LOCKER')!['delivery-point-index'];
    const lockerId = (await app.db.selectFrom('points').select('id').where('source', '=', 'russian-post').where('code', '=', locker).executeTakeFirstOrThrow()).id;
    await app.services.drafts.save(shop, { id: 'locker-draft', data: russianPostOrder('5101', { toPoint: lockerId }) as Record<string, unknown> });

    await page.getByTestId('nav-drafts').click();
    const row = page.getByTestId('draft-row').filter({ hasText: '5101' });
    await row.getByTestId('draft-select').check();
    await page.getByTestId('drafts-submit-selected').click();
    const failure = row.getByTestId('draft-failure');
    await failure.waitFor();
    await settled(page, '[data-testid="draft-failure"]');
    await screenshot(page, 'refusals-russian-post-locker-ru');

    const text = await failure.innerText();
    expect(text).toContain(`Почта России: пункт ${locker} — не почтовое отделение; посылка «до востребования» идёт в отделение, для пунктов выдачи и постаматов выберите тариф ЕКОМ`);
    expect(text.match(english)?.[0]).toBeUndefined();
    // nothing was created, and Russian Post was never asked
    const orders = await app.services.orders.list(shop, { limit: 50, offset: 0 });
    expect(orders.rows.map((r) => r.clientNumber)).not.toContain('5101');
    expect(fake.registrations('5101')).toBe(0);
  });
});
