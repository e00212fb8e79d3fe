import { manualClock } from '../../electron/core/clock';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';
import { settled } from '../helpers/settled';
import { labelled } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const hour = 60 * 60 * 1000;

describe('browser mode: the order detail', () => {
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: { companyId: number };

  beforeAll(async () => {
    session = await openBrowserMode({ appOptions: { clock } });
    const { app } = session.running;
    shop = { companyId: (await app.desktopContext()).companyId };
    for (const n of ['DET-1', 'DET-2']) await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload(n)));
    // The express couriers do not go to Tver: the service refuses this one after taking it (uploadingError).
    await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('DET-3', (o) => (o.recipient.city = 'Тверь'))));
    await app.outbox.drain(); // registered with the sandbox service: numbers, barcode, tracking link
  });
  afterAll(() => session?.close());

  const stored = (clientNumber: string) =>
    session.running.app.db.selectFrom('orders').selectAll().where('client_number', '=', clientNumber).executeTakeFirstOrThrow();

  it('opens from the list with its numbers, barcode and timeline; cancel asks first, then the order shows canceled without the cancel action; delete removes it', async () => {
    const { page } = session;
    const order = await stored('DET-1');
    await page.getByTestId('order-row').filter({ hasText: 'DET-1' }).click();
    const drawer = page.getByTestId('order-detail');
    await drawer.getByTestId('detail-actions').waitFor();

    await expect(drawer.getByRole('heading', { name: 'Order DET-1' }).count()).resolves.toBe(1);
    await expect(drawer.getByTestId('detail-client-number').textContent()).resolves.toBe('DET-1');
    await expect(drawer.getByTestId('detail-provider-number').textContent()).resolves.toBe(order.provider_number);
    // The tariff by its name, not only its number.
    const tariffId = JSON.parse(order.payload).order.tariffId;
    await drawer.getByTestId('detail-tariff').filter({ hasText: ' · ' }).waitFor();
    await expect(drawer.getByTestId('detail-tariff').textContent()).resolves.toMatch(new RegExp(`^\\D.* · ${tariffId}$`));
    const barcode = drawer.getByTestId('barcode');
    await expect(barcode.getAttribute('data-value')).resolves.toBe(order.barcode);
    await expect(barcode.locator('svg rect').count()).resolves.toBeGreaterThan(20);
    const tracking = drawer.getByTestId('detail-tracking');
    await expect(tracking.getAttribute('href')).resolves.toBe(order.tracking_url);
    await expect(tracking.getAttribute('rel')).resolves.toMatch(/noopener/);

    // Newest first: registered, then the transfer it came from.
    const timeline = drawer.getByTestId('timeline-item');
    await expect(timeline.evaluateAll((items) => items.map((i) => i.getAttribute('data-status')))).resolves.toEqual(['uploaded', 'uploading']);
    await expect(timeline.first().textContent()).resolves.toMatch(/Registered with the delivery service/);
    await expect(drawer.getByTestId('detail-item').count()).resolves.toBe(2);
    await settled(page, '[data-testid="order-detail"]');
    await screenshot(page, 'order-detail');

    // Asked first: keeping it changes nothing.
    await drawer.getByTestId('detail-cancel').click();
    await page.getByRole('dialog', { name: 'Cancel order DET-1?' }).waitFor();
    await page.getByRole('button', { name: 'Keep it' }).click();
    await page.getByRole('dialog', { name: 'Cancel order DET-1?' }).waitFor({ state: 'detached' });
    expect((await stored('DET-1')).status_key).toBe('uploaded');

    await drawer.getByTestId('detail-cancel').click();
    await page.getByTestId('detail-confirm-confirm').click();
    await drawer.locator('[data-testid="timeline-item"][data-status="deliveryCanceled"]').first().waitFor();
    await expect(timeline.first().getAttribute('data-status')).resolves.toBe('deliveryCanceled');
    await expect(drawer.getByTestId('detail-cancel').count()).resolves.toBe(0);
    await expect(drawer.locator('[data-status="deliveryCanceled"]').first().isVisible()).resolves.toBe(true);
    await page.getByTestId('toast').filter({ hasText: 'Order DET-1 canceled' }).waitFor();
    expect((await stored('DET-1')).status_key).toBe('deliveryCanceled');
    await page.getByRole('dialog', { name: 'Cancel order DET-1?' }).waitFor({ state: 'detached' });
    await screenshot(page, 'order-detail-canceled');

    // A canceled order may still be deleted: asked first, then gone from the list, the drawer closed.
    await drawer.getByTestId('detail-delete').click();
    await page.getByRole('dialog', { name: 'Delete order DET-1?' }).waitFor();
    await page.getByTestId('detail-confirm-confirm').click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('toast').filter({ hasText: 'Order DET-1 deleted' }).waitFor();
    await page.getByTestId('order-row').filter({ hasText: 'DET-1' }).waitFor({ state: 'detached' });
    expect((await stored('DET-1')).state).toBe('deleted');
    expect(session.pageErrors()).toEqual([]);
  });

  it('follows the order while it is open: a new status from the service shows by itself and cancel is no longer offered', async () => {
    const { page, running } = session;
    await page.getByTestId('order-row').filter({ hasText: 'DET-2' }).click();
    const drawer = page.getByTestId('order-detail');
    await drawer.getByTestId('detail-cancel').waitFor();

    clock.advance(6 * hour); // the parcel is handed over: the service takes no more cancels
    await running.app.services.statusRefresh.refresh({ companyId: shop.companyId });

    await drawer.locator('[data-testid="timeline-item"][data-status="onPointIn"]').waitFor();
    await drawer.getByTestId('detail-cancel').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('a refused order is fixed in the order form and sent again', async () => {
    const { page } = session;
    expect((await stored('DET-3')).status_key).toBe('uploadingError');
    await page.getByTestId('order-row').filter({ hasText: 'DET-3' }).click();
    const drawer = page.getByTestId('order-detail');
    await expect(drawer.getByTestId('detail-status-description').textContent()).resolves.toMatch(/Тверь/);
    await settled(page, '[data-testid="order-detail"]');
    await screenshot(page, 'order-detail-refused');
    await drawer.getByTestId('detail-edit').click();

    const form = page.getByTestId('order-form');
    const city = form.getByTestId('recipient-fields').getByLabel(labelled('City'));
    await expect(city.inputValue()).resolves.toBe('Тверь');
    await expect(form.getByTestId('order-fields').getByLabel(labelled('Order number')).inputValue()).resolves.toBe('DET-3');
    await city.fill('Москва');
    await settled(page, '[data-testid="order-form"]');
    await screenshot(page, 'order-detail-edit');
    await form.getByTestId('submit-order').click();
    await page.getByTestId('toast').filter({ hasText: 'Order DET-3 changed' }).waitFor();

    // The detail follows: sent again, registered this time.
    await drawer.locator('[data-testid="timeline-item"][data-status="uploaded"]').waitFor({ timeout: 15_000 });
    await drawer.getByTestId('detail-provider-number').filter({ hasText: /^SBE\d{9}$/ }).waitFor();
    const order = await stored('DET-3');
    expect(order.status_key).toBe('uploaded');
    const payload = JSON.parse(order.payload);
    expect(payload.recipient.city).toBe('Москва');
    // What the form has no box for went along unchanged.
    expect(payload.cost.deliveryCost).toBe(490.5);
    expect(payload.places[0].items.map((i: { assessedCost: number }) => i.assessedCost)).toEqual([1000, 500]);
    expect(await session.running.app.db.selectFrom('orders').select('id').where('client_number', '=', 'DET-3').execute()).toHaveLength(1);
    await page.keyboard.press('Escape');
  });

  it('reads in Russian, and says so in Russian when the order was deleted elsewhere while open', async () => {
    const { page } = session;
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByTestId('order-row').filter({ hasText: 'DET-2' }).click();
    const drawer = page.getByTestId('order-detail');
    await drawer.getByRole('heading', { name: 'Заказ DET-2' }).waitFor();
    await expect(drawer.getByTestId('detail-timeline').textContent()).resolves.toMatch(/История статусов.*Принят на склад службы доставки/s);
    await settled(page, '[data-testid="order-detail"]');
    await screenshot(page, 'order-detail-ru');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // Deleted by another program while it is open: the drawer says so in the user's language.
    await page.getByTestId('order-row').filter({ hasText: 'DET-3' }).click();
    await drawer.getByRole('heading', { name: 'Заказ DET-3' }).waitFor();
    const id = String((await stored('DET-3')).id);
    await session.running.app.services.orders.cancel(shop, id); // the express service keeps registered orders: cancel first
    await session.running.app.services.orders.remove(shop, id);
    await expect(drawer.getByTestId('detail-error').textContent()).resolves.toMatch(/Не удалось открыть заказ.*Заказ не найден/);
    await page.keyboard.press('Escape');
    await page.getByTestId('language-switch').getByText('EN').click();
  });
});
