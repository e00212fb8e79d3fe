import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import type { YandexTuning } from '../../electron/core/providers/yandex-delivery/kind';
import { FAKE_YANDEX_TOKEN, startFakeYandex, type FakeYandex } from '../fakes/yandex-delivery/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { chooseDropOff, choosePickupPoint, fillConnection, newConnection, orderDetail, pointCode, printLabel, saveConnection, testConnection } from './carrier-steps';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const priceRow = (page: Page, tariff: RegExp) => page.getByTestId('price-row').filter({ hasText: tariff }).first();

describe('browser mode: Yandex Delivery connected in Settings, an order to a pickup point and one to the door, a label printed', () => {
  let fake: FakeYandex;
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    fake = await startFakeYandex();
    session = await openBrowserMode({ appOptions: { carrierTuning: { 'yandex-delivery': { timeoutMs: 5_000, pointBandDegrees: 10 } satisfies YandexTuning } } });
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('Settings: the owner picks Yandex Delivery, types the token (required, then sealed), and "test connection" passes', async () => {
    const { page } = session;
    // The window is in English.
    const dialog = await newConnection(page, (d) => d.getByTestId('connection-service').getByText('Yandex Delivery', { exact: true }));
    await fillConnection(dialog, { name: 'Яндекс, Тверская', baseUrl: fake.url });
    await dialog.getByTestId('connection-save').click();
    // The token is required: marked, nothing created.
    await dialog.getByText('Fill in this field').waitFor();
    expect(await session.running.app.services.connections.list()).toEqual([]);
    await dialog.getByTestId('connection-field-token').fill(FAKE_YANDEX_TOKEN);
    await screenshot(page, 'yandex-delivery-connection');
    await saveConnection(dialog);

    await page.getByTestId('connection-row').filter({ hasText: 'Яндекс, Тверская' }).getByText('Yandex Delivery', { exact: true }).waitFor();
    await expect(testConnection(page, 'Яндекс, Тверская')).resolves.toEqual({ ok: 'true', message: 'Connected to Yandex Delivery' });
    const [stored] = await session.running.app.services.connections.list();
    expect(JSON.stringify(stored)).not.toContain(FAKE_YANDEX_TOKEN);
    // Its points are synced into the lists (the app does it daily in the background).
    await session.running.app.services.connections.refreshPoints();
    expect(session.pageErrors()).toEqual([]);
  });

  async function orderWith(page: Page, number: string, tariff: RegExp) {
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number, recipient: 'Анна Смирнова', city: 'Москва', sender: true });
    const form = page.getByTestId('order-form');
    const row = priceRow(page, tariff);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    // Handed over at a Yandex drop-off point in the sender's city.
    await chooseDropOff(form);
    return form;
  }

  const detailOf = (number: string) => orderDetail(session.running, shop, number);

  it('an order to a Yandex pickup point, chosen in the point picker, is booked at the fake with that point', async () => {
    const { page } = session;
    const form = await orderWith(page, 'YA-E2E-POINT', /от пункта приёма до пункта выдачи/);
    const pointOutId = await choosePickupPoint(page);
    await screenshot(page, 'yandex-delivery-point-order');
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'YA-E2E-POINT' }).waitFor({ timeout: 15_000 });

    const detail = await detailOf('YA-E2E-POINT');
    expect(detail.order).toMatchObject({ providerKey: 'yandex-delivery', tariffId: 9102, deliveryType: 2, pickupType: 2, pointOutId });
    await session.running.app.outbox.drain();
    const code = await pointCode(session.running, shop, 'yandex-delivery', pointOutId);
    expect(fake.request('YA-E2E-POINT')?.body.destination).toMatchObject({ type: 'platform_station', platform_station: { platform_id: code } });
  });

  it('an order to the door is booked too, and its label is the PDF Yandex made, opened in a new tab', async () => {
    const { page } = session;
    const form = await orderWith(page, 'YA-E2E-DOOR', /от пункта приёма до двери/);
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'YA-E2E-DOOR' }).waitFor({ timeout: 15_000 });
    expect((await detailOf('YA-E2E-DOOR')).order).toMatchObject({ providerKey: 'yandex-delivery', tariffId: 9101, deliveryType: 1, pickupType: 2 });
    await session.running.app.outbox.drain();
    expect(fake.request('YA-E2E-DOOR')?.body.destination).toMatchObject({ type: 'custom_location', custom_location: { details: { locality: 'Москва', house: '28' } } });

    const pdf = await printLabel(page, 'YA-E2E-DOOR');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(fake.http.byRoute['POST /api/b2b/platform/request/generate-labels']).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });
});
