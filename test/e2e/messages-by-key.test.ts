import type { Caller } from '../../electron/core/auth/caller';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The core's own failure texts reach a Russian window by key: the service by its Russian name, no English sentence, no raw system error. */
describe('browser mode: the adapters’ and the core’s refusals in Russian, by key', () => {
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    shop = await session.running.app.desktopContext();
  });
  afterAll(() => session?.close());

  it('a connection check against a closed port names СДЭК and says the connection was refused, without the system’s English', async () => {
    const { page, running } = session;
    const port = await closedPort();
    const created = await running.app.services.connections.create({ providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: `http://127.0.0.1:${port}` });
    await page.reload();
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    const row = page.locator(`[data-testid="connection-row"][data-connection-id="${created.id}"]`);
    await row.getByTestId('connection-test').click();
    const message = row.getByTestId('connection-test-message');
    await message.getByText(`Проверка не прошла: СДЭК: нет связи (POST /oauth/token): соединение отклонено (127.0.0.1:${port})`, { exact: true }).waitFor();
    expect(await message.textContent()).not.toMatch(/could not be reached|ECONNREFUSED|CDEK/);
    await screenshot(page, 'messages-by-key-connection-refused');
  });

  it('a courier call the service refuses to cancel says why in Russian, the service by its name', async () => {
    const { page, running } = session;
    const { app } = running;
    const profile = await app.dispatch('senderProfiles.create', shop, {
      name: 'Склад',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО «Ромашка»', city: 'Москва', street: 'ул. Тверская', house: '7', office: '12', index: '125009' },
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    const created = await app.dispatch('orders.create', shop, orderPayload('MBK-1'));
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await app.outbox.drain();

    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'MBK-1' }).getByTestId('row-checkbox').click();
    await page.getByTestId('bulk-courier').click();
    const dialog = page.getByTestId('courier-dialog');
    await expect.poll(() => dialog.getByTestId('courier-city').inputValue()).toBe('Москва');
    await dialog.getByTestId('courier-timeEnd').fill('14:00');
    await dialog.getByTestId('courier-submit').click();
    const accepted = dialog.getByTestId('courier-calls').locator('tr', { hasText: 'Принят' });
    await accepted.waitFor();
    // The service has since lost the call (a number that names no day of its book): it refuses the cancel.
    // (All zeros would read back as the day 0000-00-00 and be refused as a passed day instead.)
    const [call] = (await app.services.courier.list(shop, { limit: 1, offset: 0 })).rows;
    await app.db.updateTable('courier_calls').set({ provider_number: 'SBECLOST00000000' }).where('id', '=', Number(call.id)).execute();

    await accepted.getByTestId('courier-call-cancel').click();
    await page.getByTestId('courier-cancel-confirm-confirm').click();
    const toast = page.getByText(/^Песочница Экспресс \(тест\) не отменила вызов курьера \d+: У службы Песочница Экспресс \(тест\) нет вызова курьера SBECLOST00000000$/);
    await toast.waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/refused to cancel|sandbox-express/);
    await screenshot(page, 'messages-by-key-courier-cancel-refused');
    expect(session.pageErrors()).toEqual([]);
  });
});
