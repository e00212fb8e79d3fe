import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: the core’s messages in Russian, by key', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(async () => {
    await session?.close();
  });

  it('a connection check that cannot reach CDEK says so in Russian, the system’s own error kept as it was', async () => {
    const { page } = session;
    const port = await closedPort();
    const created = await session.running.app.services.connections.create({ providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: `http://127.0.0.1:${port}` });
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByRole('heading', { name: 'Настройки' }).waitFor();
    const row = page.locator(`[data-testid="connection-row"][data-connection-id="${created.id}"]`);
    await row.getByTestId('connection-test').click();
    const message = row.getByTestId('connection-test-message');
    await message.getByText(/^Проверка не прошла: СДЭК: нет связи \(POST \/oauth\/token\): соединение отклонено \(127\.0\.0\.1:\d+\)$/).waitFor();
    expect(await message.textContent()).not.toMatch(/could not be reached/);
    await screenshot(page, 'messages-ru-connection-unreachable');
  });

  /** English sentences the core used to send: none may reach a Russian screen. */
  const english = /\b(refused|the order|request|Canceled|must be|is required|could not|VALIDATION|error code)\b/i;

  it('a sandbox service’s refusal and a cancel reason read in Russian on the order’s screen, each field named by its label', async () => {
    const { page, running } = session;
    const { app } = running;
    const shop = { companyId: (await app.desktopContext()).companyId };
    // The express couriers do not go to Tver: the service refuses this order after taking it.
    await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('MSG-TVER', (o) => (o.recipient.city = 'Тверь'))));
    const kept = await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('MSG-BACK')));
    await app.outbox.drain();
    await app.services.orders.cancel(shop, kept.orderId);
    await app.outbox.drain();

    await page.getByTestId('nav-orders').click();
    const drawer = page.getByTestId('order-detail');
    await page.getByTestId('order-row').filter({ hasText: 'MSG-TVER' }).click();
    const description = drawer.getByTestId('detail-status-description');
    await description.getByText(/^Песочница Экспресс \(тест\) отказалась принять заказ: Получатель › Город: Песочница Экспресс \(тест\) не доставляет до двери/).waitFor();
    const refused = drawer.locator('[data-testid="timeline-item"][data-status="uploadingError"]');
    await refused.getByText('Служба доставки не приняла данные заказа (код 200)').waitFor();
    expect((await drawer.innerText()).match(english)?.[0]).toBeUndefined();
    // The status badge beside the title says the same on hover, not the service's raw English words.
    await drawer.locator('.mantine-Badge-root[data-status="uploadingError"]').hover();
    const tip = page.getByRole('tooltip');
    await tip.getByText(/Песочница Экспресс \(тест\) отказалась принять заказ/).waitFor();
    expect((await tip.innerText()).match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'messages-ru-order-refused');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByTestId('order-row').filter({ hasText: 'MSG-BACK' }).click();
    await drawer.locator('[data-testid="timeline-item"][data-status="deliveryCanceled"]').getByText('Отменён по запросу магазина').waitFor();
    expect((await drawer.innerText()).match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'messages-ru-order-canceled');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('a webhook call the site refused says why in Russian in Settings → Local API', async () => {
    const { page, running } = session;
    const { app } = running;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-api').click();
    await page.getByTestId('api-local-webhooks').check();
    const shop = { companyId: (await app.desktopContext()).companyId };
    await expect.poll(async () => (await app.services.settings.get(shop)).preferences.allowLocalWebhooks).toBe(true);
    // Nothing listens there: the connection is refused.
    const url = `http://127.0.0.1:${await closedPort()}/status`;
    const registered = await fetch(`${running.base}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: 'e2e-token-12345', 'Content-Type': 'application/json' },
      body: JSON.stringify({ url, type: 'ORDER_STATUS' }),
    });
    expect(registered.status).toBe(200);
    const client = (await app.services.companies.byToken('e2e-token-12345'))!;
    await app.services.orders.create(client, orderCreateSchema.parse(orderPayload('MSG-WH-1')));
    await app.webhookDelivery.drain();

    await page.getByTestId('api-webhooks-refresh').click();
    const row = page.getByTestId('api-webhook-row').filter({ hasText: url });
    await row.getByTestId('api-webhook-last').getByText('Сайт отклонил соединение').waitFor();
    expect(await row.textContent()).not.toMatch(/refused the connection/);
    await screenshot(page, 'messages-ru-webhook-refused');
  });
});
