import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema } from '../../shared/schemas/order';
import { cdekOrder } from '../fakes/cdek/orders';
import { startFakeCdek } from '../fakes/cdek/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { settled } from '../helpers/settled';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** English the core used to show in these places: none of it may reach a Russian window. */
const english = /\b(did not accept|credentials|refused|could not|CDEK)\b/;
/** The service's own words, quoted after our Russian frame as it sent them. */
const servicesWords = 'invalid_client (Bad credentials)';
const ours = (text: string) => text.replaceAll(servicesWords, '');

describe('browser mode in Russian: a CDEK account the service refuses', () => {
  let session: Session;
  let shop: Caller;
  let cdek: Awaited<ReturnType<typeof startFakeCdek>>;

  beforeAll(async () => {
    cdek = await startFakeCdek();
    session = await openBrowserMode({ locale: 'ru-RU' });
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await cdek?.close();
  });

  it('the outbox popover says «СДЭК: данные учётной записи не приняты» in Russian, the service\'s own words after it, and to fix the connection', async () => {
    const { page, running } = session;
    const { app } = running;
    const connection = await app.dispatch('connections.create', shop, {
      providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: cdek.url, credentials: { clientId: 'shop-account', clientSecret: 'wrong-secret' },
    });
    if (!connection.ok) throw new Error(JSON.stringify(connection.error));
    const created = await app.dispatch('orders.create', shop, orderCreateSchema.parse(cdekOrder('RD-1')));
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await app.outbox.drain();
    expect(cdek.stats.tokensIssued).toBe(0); // the fake did refuse the account

    await page.reload();
    await page.getByTestId('nav-orders').click();
    const outbox = page.locator('[data-testid="outbox-indicator"]');
    await outbox.waitFor({ timeout: 15_000 });
    await outbox.click();
    await settled(page, '[data-testid="outbox-details"]');
    const details = await page.getByTestId('outbox-details').innerText();
    expect(details).toContain(`СДЭК: данные учётной записи не приняты: ${servicesWords}. Сами заказы не уйдут: исправьте логин, пароль или ключ подключения`);
    expect(ours(details).match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'russian-details-cdek-refused-outbox');
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });
});
