import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';
import { cutTexts } from '../helpers/cut-text';
import { orderPayload } from '../helpers/payloads';
import { settled } from '../helpers/settled';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The dates and statuses of a table's cells: the list cuts long names with an ellipsis, never these. */
const datesAndStatuses = { text: '\\d{2}\\.\\d{2}\\.\\d{4}', within: '[data-status]' };

describe('browser mode: the order form and lists, the smaller things', () => {
  let session: Session;
  let shop: Caller;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    page = session.page;
    const { app } = session.running;
    shop = await app.desktopContext();
    // The list's longest statuses: registered and not handed over, and refused by the service.
    for (const n of ['1001', '1002']) await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload(n)));
    await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('1003', (o) => (o.recipient.city = 'Владивосток'))));
    await app.outbox.drain();
    await app.services.drafts.save(shop, { id: 'draft-prices', data: orderPayload('ЧЕРН-1') as Record<string, unknown> });
  });
  afterAll(() => session?.close());

  it('a blank new order opens without "Заполните поле" and offers the next number', async () => {
    await page.reload();
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    await expect.poll(() => form.getByTestId('order-fields').getByRole('textbox').first().inputValue()).toBe('1004');
    await form.getByTestId('number-offered').waitFor();
    expect(await form.getByText('Заполните поле').count()).toBe(0);
    expect(await form.locator('[aria-invalid="true"]').count()).toBe(0);
    await screenshot(page, 'leftovers-blank-form');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('the declared value follows the items as the COD does, until typed over; a bad postcode and phone are named', async () => {
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    const item = form.getByTestId('item-row').first();
    await item.getByLabel(/^Цена/).fill('750');
    await item.getByLabel(/^Кол/).fill('2');
    const cost = form.getByTestId('cost-fields');
    await expect.poll(() => cost.getByLabel(/^Объявленная ценность/).inputValue()).toBe('1500');
    await expect(cost.getByLabel(/^Наложенный платёж/).inputValue()).resolves.toBe('1500');
    await cost.getByLabel(/^Объявленная ценность/).fill('5000');
    await item.getByLabel(/^Цена/).fill('800');
    await expect.poll(() => cost.getByLabel(/^Наложенный платёж/).inputValue()).toBe('1600');
    await expect(cost.getByLabel(/^Объявленная ценность/).inputValue()).resolves.toBe('5000');
    await cost.getByTestId('assessed-follow').click();
    await expect.poll(() => cost.getByLabel(/^Объявленная ценность/).inputValue()).toBe('1600');
    await form.getByTestId('recipient-fields').getByLabel(/^Телефон/).fill('телефон');
    await form.getByTestId('submit-order').click();
    await form.getByTestId('recipient-fields').getByText('Введите номер телефона, например +7 900 123-45-67').waitFor();
    await screenshot(page, 'leftovers-costs-follow-items');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('a service connected while the window is open is offered in the next form, and one that cannot be reached says "нет связи" in the price table', async () => {
    const { app } = session.running;
    const port = await closedPort();
    const created = await app.services.connections.create({ providerKey: 'cdek', name: 'СДЭК склад', testMode: true, baseUrl: `http://127.0.0.1:${port}` });
    await page.getByTestId('nav-drafts').click();
    await page.getByTestId('draft-row').filter({ hasText: 'ЧЕРН-1' }).getByTestId('draft-open').click();
    const form = page.getByTestId('order-form');
    await form.getByTestId('price-row').first().waitFor();
    const unreachable = form.getByTestId('price-row-unreachable');
    await unreachable.first().waitFor();
    await expect(unreachable.first().textContent()).resolves.toMatch(/^СДЭК.*нет связи$/);
    await form.getByTestId('service-select').click();
    await page.getByRole('option', { name: /СДЭК/ }).waitFor();
    await page.keyboard.press('Escape');
    await form.getByTestId('price-table').scrollIntoViewIfNeeded();
    await screenshot(page, 'leftovers-price-unreachable');
    expect(created).toBeTruthy();
  });

  it('the price table\'s header passes under the form\'s footer buttons, not over them', async () => {
    const form = page.getByTestId('order-form');
    const submit = form.getByTestId('submit-order');
    const header = form.getByTestId('price-table').locator('thead');
    // Scroll the form so the price table's header sits exactly behind the footer's buttons.
    await form.evaluate((root) => {
      const head = root.querySelector('[data-testid="price-table"] thead')!.getBoundingClientRect();
      const button = root.querySelector('[data-testid="submit-order"]')!.getBoundingClientRect();
      let scroller: HTMLElement | null = root.querySelector('[data-testid="price-table"]');
      while (scroller && !(scroller.scrollHeight > scroller.clientHeight && getComputedStyle(scroller).overflowY !== 'visible' && scroller.clientHeight > 300)) scroller = scroller.parentElement;
      scroller!.scrollTop += head.top + head.height / 2 - (button.top + button.height / 2);
    });
    const [h, b] = [await header.boundingBox(), await submit.boundingBox()];
    expect(Math.abs(h!.y + h!.height / 2 - (b!.y + b!.height / 2))).toBeLessThan(h!.height);
    const onTop = await submit.evaluate((button) => {
      const box = button.getBoundingClientRect();
      const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return top !== null && button.contains(top);
    });
    await screenshot(page, 'leftovers-footer-over-prices');
    expect(onTop).toBe(true);
  });

  it('"Копировать заказ" opens a new order with the same recipient and parcel, the next number and no delivery day', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('order-form').waitFor({ state: 'detached' });
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').filter({ hasText: '1001' }).click();
    await page.getByTestId('order-detail').getByTestId('detail-copy-order').click();
    const form = page.getByTestId('order-form');
    await expect.poll(() => form.getByTestId('order-fields').getByRole('textbox').first().inputValue()).toBe('1004');
    await expect(form.getByTestId('recipient-fields').getByLabel(/^Получатель|^ФИО|^Имя/).first().inputValue()).resolves.toBe('Анна Смирнова');
    await expect(form.getByTestId('cost-fields').getByLabel(/^Объявленная ценность/).inputValue()).resolves.toBe('2500');
    await screenshot(page, 'leftovers-copy-order');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    if (await page.getByTestId('order-detail').count()) await page.keyboard.press('Escape');
    await page.getByTestId('order-detail').waitFor({ state: 'detached' });
  });

  for (const width of [1366, 1440]) {
    it(`the orders list shows whole dates and statuses at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 860 });
      await page.getByTestId('nav-orders').click();
      await page.getByTestId('order-row').nth(2).waitFor();
      await settled(page, '[data-testid="orders-table"]');
      await screenshot(page, `leftovers-orders-${width}`);
      expect(await cutTexts(page, '[data-testid="orders-table"] tbody', datesAndStatuses)).toEqual([]);
    });
  }
});
