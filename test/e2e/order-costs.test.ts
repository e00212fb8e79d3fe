import { openBrowserMode, screenshot } from '../helpers/browser';
import { fill, fillOrder, labelled } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: the delivery price and the pickup point stay with the order', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(() => session?.close());

  it('keeps the price chosen in the comparison and the recipient\'s charge (added to the COD), shown in the list and the detail with the point\'s address and hours', async () => {
    const { page } = session;
    const shop = await session.running.app.desktopContext();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'COST-1', recipient: 'Анна Смирнова', city: 'Санкт-Петербург', sender: true });
    const form = page.getByTestId('order-form');

    // The recipient pays 200 ₽ for delivery, collected with the cash on delivery: 2 × 1500 + 200.
    await fill(form.getByTestId('cost-fields'), 'Delivery charge, ₽', '200');
    await form.getByTestId('delivery-in-cod').check();
    await expect(form.getByLabel(labelled('Cash on delivery, ₽')).inputValue()).resolves.toBe('3200');

    // Prices for the order as it is now (the COD fee is in them): the chosen one is kept with the order.
    const row = page.getByTestId('price-row').filter({ hasText: /Экспресс склад-склад/ }).first();
    await row.waitFor();
    await page.getByTestId('price-table').getByLabel('Calculating prices').waitFor({ state: 'detached' });
    const priceText = (await row.locator('td').nth(2).textContent()) ?? '';
    const price = Number(priceText.replace(/[^\d.]/g, ''));
    expect(price).toBeGreaterThan(0);
    await row.click();
    await expect(form.getByTestId('quoted-delivery').textContent()).resolves.toContain(priceText);

    const picker = page.getByTestId('point-picker');
    await picker.getByTestId('point-option').first().click();
    const pointId = Number(await picker.getByTestId('point-chosen').getAttribute('data-point-id'));
    await form.getByTestId('submit-order').click();

    const listRow = page.getByTestId('order-row').filter({ hasText: 'COST-1' });
    await listRow.waitFor({ timeout: 15_000 });
    await expect(listRow.textContent()).resolves.toContain(priceText);

    const stored = await session.running.app.services.orders.list(shop, { limit: 10, offset: 0 });
    const orderId = stored.rows.find((r) => r.clientNumber === 'COST-1')!.orderId;
    const detail = await session.running.app.services.orders.get(shop, orderId);
    expect(detail.cost).toMatchObject({ codCost: 3200, deliveryCost: 200, quotedDeliveryCost: price });

    await listRow.click();
    const drawer = page.getByTestId('order-detail');
    await expect(drawer.getByTestId('detail-cost-quoted').textContent()).resolves.toBe(priceText);
    await expect(drawer.getByTestId('detail-cost-delivery').textContent()).resolves.toBe('₽200.00');
    const point = await session.running.app.dispatch('lists.point', shop, { providerKey: 'sandbox-express', id: pointId });
    const { address } = (point as { ok: true; value: { address: string } }).value;
    const where = drawer.getByTestId('detail-delivery');
    await expect.poll(() => where.textContent()).toContain(address);
    await expect(where.getByTestId('point-hours').textContent()).resolves.toMatch(/\d\d:\d\d/);
    await drawer.getByTestId('detail-costs').scrollIntoViewIfNeeded();
    await screenshot(page, 'order-costs-detail');
    expect(session.pageErrors()).toEqual([]);
  });
});
