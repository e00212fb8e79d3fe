import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import type { BoxberryTuning } from '../../electron/core/providers/boxberry/kind';
import { FAKE_BOXBERRY_TOKEN, startFakeBoxberry, type FakeBoxberry } from '../fakes/boxberry/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';
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
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    await page.getByTestId('connection-add').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByTestId('connection-service').getByText('Boxberry').click();
    await expect(dialog.getByTestId('connection-testMode').count()).resolves.toBe(0);
    await dialog.getByTestId('connection-name').fill('Boxberry, основной');
    await dialog.getByTestId('connection-field-token').fill(FAKE_BOXBERRY_TOKEN);
    await dialog.getByTestId('connection-baseUrl').fill(fake.url);
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('connection-row').filter({ hasText: 'Boxberry, основной' });
    await row.getByTestId('connection-test').click();
    await expect(row.getByTestId('connection-test-result').getAttribute('data-ok')).resolves.toBe('true');
    await expect(row.getByTestId('connection-test-message').textContent()).resolves.toBe('Connected to Boxberry');
    await session.running.app.services.connections.refreshPoints();
    expect(session.pageErrors()).toEqual([]);
  });

  /** Boxberry gives no prices, so the service and tariff are chosen from their selects; the drop-off point in Moscow. */
  async function orderWith(page: Page, number: string, tariffId: number) {
    // A fresh window, as the shop would have after connecting: the form's service list is read when it opens.
    await page.reload();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number, recipient: 'Пётр Сидоров', city: 'Москва', sender: true });
    const form = page.getByTestId('order-form');
    await form.getByTestId('service-select').click();
    await page.getByRole('option', { name: 'Boxberry' }).click();
    await form.getByTestId('tariff-select').click();
    await page.getByRole('option', { name: new RegExp(`· ${tariffId}$`) }).click();
    const dropOff = form.getByTestId('dropoff-picker');
    if (!(await dropOff.getByTestId('dropoff-chosen').isVisible())) {
      await dropOff.getByTestId('dropoff-option').first().click();
      await dropOff.getByTestId('dropoff-chosen').waitFor();
    }
    return form;
  }

  const detailOf = async (number: string) => {
    const list = await session.running.app.services.orders.list(shop, { limit: 10, offset: 0 });
    return session.running.app.services.orders.get(shop, list.rows.find((r) => r.clientNumber === number)!.orderId);
  };

  it('an order to a Boxberry point chosen in the picker is created at the fake with that point', async () => {
    const { page } = session;
    const form = await orderWith(page, 'BB-E2E-POINT', 9201);
    const picker = page.getByTestId('point-picker');
    await picker.getByTestId('point-option').first().click();
    await picker.getByTestId('point-chosen').waitFor();
    const pointOutId = Number(await picker.getByTestId('point-chosen').getAttribute('data-point-id'));
    await screenshot(page, 'boxberry-point-order');
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'BB-E2E-POINT' }).waitFor({ timeout: 15_000 });
    expect((await detailOf('BB-E2E-POINT')).order).toMatchObject({ providerKey: 'boxberry', tariffId: 9201, deliveryType: 2, pickupType: 2, pointOutId });
    await session.running.app.outbox.drain();
    const point = await session.running.app.dispatch('lists.point', shop, { providerKey: 'boxberry', id: pointOutId });
    expect(fake.parcel('BB-E2E-POINT')?.sdata).toMatchObject({ vid: '1', shop: { name: point.ok ? (point.value as { code: string }).code : '?' } });
  });

  it('an order to the door is created too, and its label is the PDF Boxberry links to, opened in a new tab', async () => {
    const { page } = session;
    const form = await orderWith(page, 'BB-E2E-DOOR', 9202);
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'BB-E2E-DOOR' }).waitFor({ timeout: 15_000 });
    await session.running.app.outbox.drain();
    expect(fake.parcel('BB-E2E-DOOR')?.sdata).toMatchObject({ vid: '2', kurdost: { citi: 'Москва' } });

    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'BB-E2E-DOOR' }).click();
    const button = page.getByTestId('order-detail').getByTestId('detail-label');
    await button.waitFor();
    await page.evaluate(keepBlobs);
    const pdf = await openedPdf(page, () => button.click());
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(fake.http.byRoute['GET ParselCheck']).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });
});
