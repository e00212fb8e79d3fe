import type { Caller } from '../../electron/core/auth/caller';
import { orderPayload } from '../helpers/payloads';
import { openBrowserMode, screenshot } from '../helpers/browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: calling a courier for the chosen orders, and canceling the call', () => {
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    const { app } = session.running;
    shop = await app.desktopContext();
    const profile = await app.dispatch('senderProfiles.create', shop, {
      name: 'Склад на Тверской',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО «Ромашка»', city: 'Москва', street: 'ул. Тверская', house: '7', office: '12', index: '125009' },
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    for (const n of ['CUR-1', 'CUR-2']) {
      const created = await app.dispatch('orders.create', shop, orderPayload(n));
      if (!created.ok) throw new Error(JSON.stringify(created.error));
    }
    await app.outbox.drain();
  });
  afterAll(() => session?.close());

  it('"Вызвать курьера" fills the form from the sender profile and the orders, the service answers with its number, and the call is canceled', async () => {
    const { page, running } = session;
    await page.reload();
    for (const n of ['CUR-1', 'CUR-2']) await page.getByTestId('order-row').filter({ hasText: n }).getByTestId('row-checkbox').click();
    await page.getByTestId('bulk-courier').click();
    const dialog = page.getByTestId('courier-dialog');
    await expect.poll(() => dialog.getByTestId('courier-city').inputValue()).toBe('Москва');
    expect(await dialog.getByTestId('courier-orders').textContent()).toBe('Заказов: 2');
    expect(await dialog.getByTestId('courier-contactName').inputValue()).toBe('Иван Петров');
    expect(await dialog.getByTestId('courier-service').inputValue()).toBe('Песочница Экспресс (тест)');
    // Each sandbox order weighs 1200 g: the total of the two.
    expect(await dialog.getByTestId('courier-weight').inputValue()).toMatch(/^2[\s ]?400$/);

    // A window under three hours is refused by the service, with its reason shown.
    await dialog.getByTestId('courier-timeEnd').fill('11:30');
    await dialog.getByTestId('courier-submit').click();
    await expect.poll(() => dialog.getByTestId('courier-problem').textContent()).toContain('До: интервал должен быть не меньше 3 часов (10:00–11:30 — короче)');

    await dialog.getByTestId('courier-timeEnd').fill('14:00');
    await dialog.getByTestId('courier-comment').fill('Въезд со двора');
    await dialog.getByTestId('courier-submit').click();
    const accepted = dialog.getByTestId('courier-calls').locator('tr', { hasText: 'Принят' });
    await accepted.waitFor();
    const number = (await accepted.locator('td').nth(4).textContent()) ?? '';
    expect(number).toMatch(/^SBEC\d{14}$/);
    expect(await dialog.getByTestId('courier-calls').locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'courier-call-accepted');

    const stored = await running.app.services.courier.list(shop, { limit: 10, offset: 0 });
    expect(stored.rows[0]).toMatchObject({ state: 'accepted', providerNumber: number, comment: 'Въезд со двора', weight: 2400, orderIds: expect.any(Array) });
    expect(stored.rows[0].orderIds).toHaveLength(2);

    await accepted.getByTestId('courier-call-cancel').click();
    await page.getByTestId('courier-cancel-confirm-confirm').click();
    await dialog.getByTestId('courier-calls').locator('tr', { hasText: 'Отменён' }).waitFor();
    expect(await dialog.getByTestId('courier-call-cancel').count()).toBe(0);
    await screenshot(page, 'courier-call-canceled');
    expect((await running.app.services.courier.list(shop, { limit: 10, offset: 0 })).rows[0].state).toBe('canceled');
    expect(session.pageErrors()).toEqual([]);
  });

  it('Передача: "Вызвать курьера" on a group opens the dialog with its service, its orders and their weight', async () => {
    const { page } = session;
    await page.reload(); // the previous call's dialog closed
    await page.getByTestId('nav-dispatch').click();
    const express = page.locator('[data-testid="dispatch-group"][data-provider="sandbox-express"]');
    await express.getByTestId('dispatch-courier').click();
    const dialog = page.getByTestId('courier-dialog');
    await expect.poll(() => dialog.getByTestId('courier-city').inputValue()).toBe('Москва');
    expect(await dialog.getByTestId('courier-orders').textContent()).toBe('Заказов: 2');
    expect(await dialog.getByTestId('courier-service').inputValue()).toBe('Песочница Экспресс (тест)');
    expect(await dialog.getByTestId('courier-weight').inputValue()).toMatch(/^2[\s ]?400$/);
    await screenshot(page, 'dispatch-courier');
    expect(session.pageErrors()).toEqual([]);
  });
});

