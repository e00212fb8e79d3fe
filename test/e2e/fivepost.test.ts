import { PDFDocument } from 'pdf-lib';
import type { Caller } from '../../electron/core/auth/caller';
import type { FivePostTuning } from '../../electron/core/providers/fivepost/kind';
import { fivePostOrder } from '../fakes/fivepost/orders';
import { FAKE_FIVEPOST_API_KEY, FAKE_FIVEPOST_WAREHOUSE, startFakeFivePost, type FakeFivePost } from '../fakes/fivepost/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';
import { orderDetail } from './carrier-steps';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: 5Post connected in Settings, an order to a locker, the door refused, its label printed', () => {
  let fake: FakeFivePost;
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    fake = await startFakeFivePost();
    session = await openBrowserMode({ appOptions: { carrierTuning: { fivepost: { timeoutMs: 5_000 } satisfies FivePostTuning } } });
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('Settings: the owner picks 5Post (a test mode offered), types the API key and the warehouse, and "test connection" passes', async () => {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    await page.getByTestId('connection-add').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByTestId('connection-service').getByText('5Post', { exact: true }).click();
    await expect(dialog.getByTestId('connection-testMode').count()).resolves.toBe(1);
    await dialog.getByTestId('connection-name').fill('5Post, основной');
    await dialog.getByTestId('connection-field-apiKey').fill(FAKE_FIVEPOST_API_KEY);
    await dialog.getByTestId('connection-field-warehouseId').fill(FAKE_FIVEPOST_WAREHOUSE);
    await dialog.getByTestId('connection-baseUrl').fill(fake.url);
    await screenshot(page, 'fivepost-connection-dialog');
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('connection-row').filter({ hasText: '5Post, основной' });
    await row.getByTestId('connection-test').click();
    await expect(row.getByTestId('connection-test-result').getAttribute('data-ok')).resolves.toBe('true');
    await expect(row.getByTestId('connection-test-message').textContent()).resolves.toBe('Connected to 5Post');
    await screenshot(page, 'fivepost-connected');
    await session.running.app.services.connections.refreshPoints();
    expect(fake.stats.jwtsIssued).toBeGreaterThan(0);
    expect(session.pageErrors()).toEqual([]);
  });

  const detailOf = (number: string) => orderDetail(session.running, shop, number);

  it('an order to a 5Post locker chosen in the picker is created at the fake with that point; "to the door" cannot be chosen for 5Post', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'FP-E2E-LOCKER', recipient: 'Пётр Сидоров', city: 'Москва', sender: true });
    const form = page.getByTestId('order-form');
    await form.getByTestId('service-select').click();
    await page.getByRole('option', { name: '5Post' }).click();
    // 5Post delivers to points and lockers only: the door is switched off and the service says why.
    await expect(form.getByTestId('delivery-type').getByLabel('To the door').isDisabled()).resolves.toBe(true);
    await expect(form.getByTestId('delivery-type').getByLabel('To a pickup point').isChecked()).resolves.toBe(true);
    await expect(form.getByText(/до двери не возит/).count()).resolves.toBe(1);
    await form.getByTestId('tariff-select').click();
    await page.getByRole('option', { name: /· 9401$/ }).click();
    const picker = page.getByTestId('point-picker');
    await picker.getByTestId('point-filter-kind').getByText('Parcel lockers').click();
    // The list follows the filter: lockers only, each marked so.
    await expect.poll(async () => { const rows = await picker.getByTestId('point-option').allTextContents(); return rows.length > 0 && rows.every((r) => /locker/.test(r)); }, { timeout: 10_000 }).toBe(true);
    const locker = picker.getByTestId('point-option').first();
    await locker.click();
    await picker.getByTestId('point-chosen').waitFor();
    const pointOutId = Number(await picker.getByTestId('point-chosen').getAttribute('data-point-id'));
    await screenshot(page, 'fivepost-locker-order');
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'FP-E2E-LOCKER' }).waitFor({ timeout: 15_000 });
    expect((await detailOf('FP-E2E-LOCKER')).order).toMatchObject({ providerKey: 'fivepost', tariffId: 9401, deliveryType: 2, pickupType: 1, pointOutId });
    await session.running.app.outbox.drain();
    const point = await session.running.app.dispatch('lists.point', shop, { providerKey: 'fivepost', id: pointOutId });
    const code = point.ok ? (point.value as { code: string; type: number }).code : '?';
    expect(fake.order('FP-E2E-LOCKER')?.body).toMatchObject({ receiverLocation: code, senderLocation: FAKE_FIVEPOST_WAREHOUSE });
    expect(fake.points().find((p) => p.id === code)?.type).toBe('POSTAMAT');
    expect(session.pageErrors()).toEqual([]);
  });

  it('an order "to the door" for 5Post sent by the shop\'s site is refused with a clear message, and nothing reaches 5Post', async () => {
    const origin = new URL(session.running.uiUrl).origin;
    const target = (await session.running.app.db.selectFrom('points').select('id').where('source', '=', 'fivepost').executeTakeFirstOrThrow()).id;
    const before = fake.http.requests;
    const res = await fetch(`${origin}/v1/orders`, {
      method: 'POST',
      headers: { Authorization: 'e2e-token-12345', 'Content-Type': 'application/json' },
      body: JSON.stringify(fivePostOrder('FP-E2E-DOOR', target, (o) => { o.order.deliveryType = 1; delete o.order.pointOutId; })),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: { field: string; message: string }[] };
    expect(body.code).toBe('040002');
    expect(body.errors).toContainEqual({ field: 'order.deliveryType', message: 'fivepost does not deliver to the door' });
    expect(fake.http.requests).toBe(before);
    expect(fake.order('FP-E2E-DOOR')).toBeNull();
  });

  it('its label is 5Post\'s own PDF (orderLabels/bySenderOrderId), opened in a new tab from the order', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'FP-E2E-LOCKER' }).click();
    const button = page.getByTestId('order-detail').getByTestId('detail-label');
    await button.waitFor();
    await screenshot(page, 'fivepost-order-detail');
    await page.evaluate(keepBlobs);
    const pdf = await openedPdf(page, () => button.click());
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(fake.http.byRoute['POST /api/v1/orderLabels/bySenderOrderId']).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });

  it('the price comparison offers 5Post to a point at its zone rate; the dispatch screen and Today show its order under its name', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'FP-E2E-PRICE', recipient: 'Анна Смирнова', city: 'Москва', sender: true });
    const row = page.getByTestId('price-row').filter({ hasText: '5Post' });
    await row.waitFor({ timeout: 20_000 });
    // Moscow's cheapest 5Post point: 129 ₽ + VAT = 154.80 ₽ for 1.2 kg.
    await expect(row.textContent()).resolves.toMatch(/154[.,]80/);
    await screenshot(page, 'fivepost-price-table');
    await page.getByTestId('order-form').getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('nav-dispatch').click();
    const group = page.locator('[data-testid="dispatch-group"][data-provider="fivepost"]');
    await group.waitFor();
    await expect(group.textContent()).resolves.toMatch(/5Post[\s\S]*FP-E2E-LOCKER/);
    await screenshot(page, 'fivepost-dispatch');
    await page.getByTestId('nav-today').click();
    const handover = page.getByTestId('today-handover');
    await handover.waitFor();
    await expect.poll(() => handover.textContent(), { timeout: 10_000 }).toMatch(/5Post/);
    await screenshot(page, 'fivepost-today');
    expect(session.pageErrors()).toEqual([]);
  });
});
