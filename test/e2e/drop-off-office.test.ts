import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderDetail } from './carrier-steps';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** Scrolls the delivery section to the top of the drawer, for the screenshot. */
const showDelivery = (page: Page) => page.getByTestId('delivery-fields').evaluate((el) => el.scrollIntoView({ block: 'start' }));

describe('browser mode: a CDEK order the shop brings to a CDEK office ("склад-дверь")', () => {
  let fake: FakeCdek;
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    fake = await startFakeCdek();
    session = await openBrowserMode({ appOptions: { cdek: { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} } } });
    const { app } = session.running;
    shop = await app.desktopContext();
    const created = await app.dispatch('connections.create', shop, { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await app.services.connections.refreshPoints();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('is created with the drop-off office chosen in the picker, which the next order offers again', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'DROP-1', recipient: 'Анна Смирнова', city: 'Санкт-Петербург', sender: true });
    const form = page.getByTestId('order-form');

    await page.getByTestId('price-row').filter({ hasText: /Посылка склад-дверь/ }).first().click();
    const picker = form.getByTestId('dropoff-picker');
    // Offices in the sender's city that take parcels in: parcel lockers (reception off in the fake) are not offered.
    await expect(picker.getByTestId('dropoff-city').inputValue()).resolves.toBe('Москва');
    await picker.getByTestId('dropoff-option').first().waitFor();
    const offered = await picker.getByTestId('dropoff-option').allTextContents();
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.join('\n')).not.toMatch(/Постамат/);
    await picker.getByTestId('dropoff-option').first().click();
    const chosen = picker.getByTestId('dropoff-chosen');
    await chosen.waitFor();
    const pointInId = Number(await chosen.getAttribute('data-point-id'));
    await expect(chosen.getByTestId('point-hours').textContent()).resolves.toMatch(/\d\d:\d\d/);

    await page.setViewportSize({ width: 1366, height: 1500 });
    await showDelivery(page);
    await screenshot(page, 'drop-off-office');
    await page.setViewportSize({ width: 1366, height: 860 });

    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'DROP-1' }).waitFor({ timeout: 15_000 });
    const detail = await orderDetail(session.running, shop, 'DROP-1');
    expect(detail.order).toMatchObject({ providerKey: 'cdek', tariffId: 137, pickupType: 2, deliveryType: 1, pointInId });

    // CDEK received the office's code as the shipment point.
    await session.running.app.outbox.drain();
    const office = await session.running.app.dispatch('lists.point', shop, { providerKey: 'cdek', id: pointInId });
    expect(office.ok).toBe(true);
    const code = office.ok ? (office.value as { code: string }).code : '';
    expect(fake.order('DROP-1')?.body).toMatchObject({ tariff_code: 137, shipment_point: code });

    // The next order of the service starts with the same office: it is the shop's usual one now.
    await page.getByTestId('new-order-button').click();
    await expect(form.getByTestId('dropoff-chosen').getAttribute('data-point-id')).resolves.toBe(String(pointInId));
    // And so does a fresh window (the form's carry-over gone): the office was kept for the service.
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'DROP-2', recipient: 'Пётр Иванов', city: 'Санкт-Петербург', sender: true });
    await page.getByTestId('price-row').filter({ hasText: /Посылка склад-дверь/ }).first().click();
    await expect(form.getByTestId('dropoff-chosen').getAttribute('data-point-id')).resolves.toBe(String(pointInId));
    expect(session.pageErrors()).toEqual([]);
  });
});
