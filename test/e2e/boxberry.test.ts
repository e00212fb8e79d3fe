import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import type { BoxberryTuning } from '../../electron/core/providers/boxberry/kind';
import { FAKE_BOXBERRY_TOKEN, startFakeBoxberry, type FakeBoxberry } from '../fakes/boxberry/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { chooseDropOff, choosePickupPoint, fillConnection, newConnection, orderDetail, pointCode, printLabel, saveConnection, testConnection } from './carrier-steps';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: Boxberry connected in Settings, an order to a point and one to the door, a label printed', () => {
  let fake: FakeBoxberry;
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    fake = await startFakeBoxberry();
    session = await openBrowserMode({ appOptions: { carrierTuning: { boxberry: { timeoutMs: 5_000 } satisfies BoxberryTuning } } });
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('Settings: the owner picks Boxberry (no test mode offered), types the token, and "test connection" passes', async () => {
    const { page } = session;
    const dialog = await newConnection(page, (d) => d.getByTestId('connection-service').getByText('Boxberry'));
    await expect(dialog.getByTestId('connection-testMode').count()).resolves.toBe(0);
    await fillConnection(dialog, { name: 'Boxberry, основной', baseUrl: fake.url, fields: { token: FAKE_BOXBERRY_TOKEN } });
    await saveConnection(dialog);
    await expect(testConnection(page, 'Boxberry, основной')).resolves.toEqual({ ok: 'true', message: 'Connected to Boxberry' });
    await session.running.app.services.connections.refreshPoints();
    expect(session.pageErrors()).toEqual([]);
  });

  /** The tariff chosen from the price comparison (Boxberry's own prices, DeliveryCosts); the drop-off point in Moscow. */
  async function orderWith(page: Page, number: string, tariff: RegExp) {
    // A fresh window, as the shop would have after connecting: the form's service list is read when it opens.
    await page.reload();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number, recipient: 'Пётр Сидоров', city: 'Москва', sender: true });
    const form = page.getByTestId('order-form');
    const row = page.getByTestId('price-row').filter({ hasText: tariff }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await chooseDropOff(form);
    return form;
  }

  it('an order to a Boxberry point chosen in the picker is created at the fake with that point', async () => {
    const { page } = session;
    const form = await orderWith(page, 'BB-E2E-POINT', /Boxberry: до пункта выдачи/);
    const pointOutId = await choosePickupPoint(page);
    await screenshot(page, 'boxberry-point-order');
    expect(fake.costsAsked()).toBeGreaterThan(0);
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'BB-E2E-POINT' }).waitFor({ timeout: 15_000 });
    expect((await orderDetail(session.running, shop, 'BB-E2E-POINT')).order).toMatchObject({ providerKey: 'boxberry', tariffId: 9201, deliveryType: 2, pickupType: 2, pointOutId });
    await session.running.app.outbox.drain();
    expect(fake.parcel('BB-E2E-POINT')?.sdata).toMatchObject({ vid: '1', shop: { name: await pointCode(session.running, shop, 'boxberry', pointOutId) } });
  });

  it('an order to the door is created too, and its label is the PDF Boxberry links to, opened in a new tab', async () => {
    const { page } = session;
    const form = await orderWith(page, 'BB-E2E-DOOR', /Boxberry: курьером до двери/);
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'BB-E2E-DOOR' }).waitFor({ timeout: 15_000 });
    await session.running.app.outbox.drain();
    expect(fake.parcel('BB-E2E-DOOR')?.sdata).toMatchObject({ vid: '2', kurdost: { citi: 'Москва' } });

    const pdf = await printLabel(page, 'BB-E2E-DOOR');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(fake.http.byRoute['GET ParselCheck']).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });
});
