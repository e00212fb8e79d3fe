import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { manualClock } from '../../electron/core/clock';
import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek } from '../fakes/cdek/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';
import { settled } from '../helpers/settled';
import { createdOrder } from './russian-steps';
import type { OrderView } from '../../shared/schemas/order-detail';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** English the core used to show in these places: none of it may reach a Russian window (the service's own words aside). */
const english = /\b(did not accept|credentials|refused|could not|waiting|connection|status|onPointIn|CDEK)\b/;
/** The CDEK fake's own words for a secret it does not know, quoted after our Russian frame as it sent them. */
const servicesWords = 'invalid_client (Bad credentials)';
const ours = (text: string) => text.replaceAll(servicesWords, '');

describe('browser mode in Russian: why an order still waits in the outbox, in its detail', () => {
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: Caller;
  let page: Page;
  let cdek: Awaited<ReturnType<typeof startFakeCdek>>;

  beforeAll(async () => {
    cdek = await startFakeCdek();
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock } });
    page = session.page;
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await cdek?.close();
  });

  const openOrder = async (number: string) => {
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').filter({ hasText: number }).click();
    await settled(page, '[data-testid="order-detail"]');
    return page.getByTestId('order-detail');
  };

  it('a login CDEK refuses: the detail and the popover say to fix the connection in the settings, and it goes once fixed', async () => {
    const { app } = session.running;
    const connection = await app.dispatch('connections.create', shop, {
      providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: cdek.url, credentials: { clientId: 'shop-account', clientSecret: 'wrong-secret' },
    });
    if (!connection.ok) throw new Error(JSON.stringify(connection.error));
    const orderId = await createdOrder(session.running, shop, cdekOrder('OE-1'));
    await app.outbox.drain();
    expect(cdek.stats.tokensIssued).toBe(0); // the fake did refuse the account

    await page.reload();
    const detail = await openOrder('OE-1');
    const note = detail.getByTestId('detail-outbox');
    await note.waitFor();
    const said = await note.innerText();
    expect(said).toContain('Заказ ещё не передан в службу доставки');
    expect(said).toContain(`СДЭК: данные учётной записи не приняты: ${servicesWords}. Сами заказы не уйдут: исправьте логин, пароль или ключ подключения в «Настройки → Службы доставки»`);
    expect(said).toContain('Уже 1 попытка');
    expect(said).not.toContain('уйдёт сам'); // not the outage's promise
    expect(ours(said).match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'outbox-error-in-detail-credentials');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });

    const outbox = page.locator('[data-testid="outbox-indicator"][data-state="refused"]');
    await outbox.waitFor({ timeout: 15_000 });
    await expect(outbox.textContent()).resolves.toBe('Подключение не принято · 1');
    await outbox.click();
    await settled(page, '[data-testid="outbox-details"]');
    const popover = page.getByTestId('outbox-details');
    const line = await popover.getByTestId('outbox-credentials-refused').innerText();
    expect(line).toContain('Сами заказы не уйдут: исправьте логин, пароль или ключ подключения в «Настройки → Службы доставки»');
    const whole = await popover.innerText();
    expect(whole).not.toContain('уйдут сами');
    expect(ours(whole).match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'outbox-error-in-detail-popover');
    // «Открыть настройки» opens «Службы доставки» (the connections), not the first section of the settings
    await popover.getByTestId('open-connection-settings').click();
    await page.getByTestId('connections-section').waitFor();
    await expect(page.getByTestId('settings-tab-connections').getAttribute('aria-selected')).resolves.toBe('true');
    await screenshot(page, 'outbox-error-open-settings-connections');
    // from the order's detail, the order's own connection is marked there
    const again = await openOrder('OE-1');
    await again.getByTestId('detail-outbox').getByTestId('open-connection-settings').click();
    const marked = page.locator('[data-testid="connection-row"][data-focused="true"]');
    await marked.waitFor();
    await expect(marked.getAttribute('data-connection-id')).resolves.toBe(String((connection.value as { id: number }).id));
    await expect(page.getByTestId('settings-tab-connections').getAttribute('aria-selected')).resolves.toBe('true');
    if (await page.getByTestId('order-detail').isVisible()) await page.keyboard.press('Escape');
    await settled(page, '[data-testid="connections-section"]');
    await screenshot(page, 'outbox-error-open-settings-connection-marked');

    // The shop puts the right secret in: the paused connection tries again at once, and the order goes.
    const fixed = await app.dispatch('connections.update', shop, { id: (connection.value as { id: number }).id, credentials: FAKE_TEST_ACCOUNT });
    if (!fixed.ok) throw new Error(JSON.stringify(fixed.error));
    clock.advance(60_000); // past the order's own backoff, well within the connection's pause
    await app.outbox.drain();
    const view = await app.dispatch('orders.get', shop, { orderId });
    expect(view.ok && { status: (view.value as OrderView).order.statusKey, outbox: (view.value as OrderView).outbox }).toEqual({ status: 'uploaded', outbox: null });
    await page.getByTestId('outbox-indicator').waitFor({ state: 'detached', timeout: 15_000 });
    expect(session.pageErrors()).toEqual([]);
  });

  it('an open order on its way reads itself again when the outbox names it, not on every state of the queue', async () => {
    const { app } = session.running;
    // An account CDEK refuses: the order's first try comes back refused and the connection pauses, so it stays on its way.
    const connection = await app.dispatch('connections.create', shop, {
      providerKey: 'cdek', name: 'Склад 2', testMode: true, baseUrl: cdek.url, credentials: { clientId: 'shop-account', clientSecret: 'wrong-secret' },
    });
    if (!connection.ok) throw new Error(JSON.stringify(connection.error));
    const connectionId = (connection.value as { id: number }).id;
    const orderId = await createdOrder(session.running, shop, cdekOrder('OE-3', (o) => (o.order.providerConnectId = connectionId)));
    await app.outbox.drain();
    const detail = await openOrder('OE-3');
    await detail.getByTestId('detail-outbox').waitFor(); // its read after the refused try is in
    const shown = await app.dispatch('orders.get', shop, { orderId });
    expect(shown.ok && (shown.value as OrderView).order.statusKey).toBe('uploading'); // still on its way
    const reads: string[] = [];
    const counted = (request: { url(): string }) => {
      if (request.url().endsWith('/app/commands/orders.get')) reads.push(request.url());
    };
    page.on('request', counted);
    try {
      const state = { type: 'outbox.state', companyId: shop.companyId, pending: 1, waitingForConnection: false } as const;
      // Passes about other orders (and one naming none): this order's detail stays as it is.
      app.events.publish({ ...state, orderIds: ['999999'] });
      app.events.publish({ ...state, orderIds: [] });
      app.events.publish(state);
      // Then one naming it: it reads itself once. The stream keeps the events' order, so the others came first.
      const read = page.waitForRequest((request) => request.url().endsWith('/app/commands/orders.get'));
      app.events.publish({ ...state, orderIds: ['999999', orderId] });
      await read;
      await settled(page, '[data-testid="order-detail"]');
      expect(reads).toHaveLength(1);
    } finally {
      page.off('request', counted);
    }
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });

  it('a cancel refused for the order’s status names the status in Russian, not its key', async () => {
    const { app } = session.running;
    const orderId = await createdOrder(session.running, shop, orderPayload('OE-2'));
    await app.outbox.drain();
    const detail = await openOrder('OE-2');
    await detail.getByTestId('detail-cancel').waitFor();
    // Meanwhile the service took the parcel in (the refresh's event has not reached this window yet).
    await app.stores.orders.appendStatus(Number(orderId), shop.companyId, { key: 'onPointIn', at: clock.now() });
    await detail.getByTestId('detail-cancel').click();
    await page.getByTestId('detail-confirm-confirm').click();
    const refusal = detail.getByTestId('detail-action-error');
    await refusal.waitFor();
    await settled(page, '[data-testid="detail-action-error"]');
    const said = await refusal.innerText();
    expect(said).toContain('(статус «Принят на склад службы доставки»)');
    expect(said).not.toContain('В запросе есть ошибки'); // the reason alone, the order named by its number
    expect(said).not.toMatch(new RegExp(`Заказ ${orderId}\\b`));
    expect(said).toContain('Заказ OE-2');
    expect(said.match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'outbox-error-in-detail-status-refusal');
    expect(session.pageErrors()).toEqual([]);
  });
});
