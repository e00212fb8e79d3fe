import type { Page } from 'playwright-core';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { fill, fillOrder, labelled } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const companyOf = async (session: Session) => ({ companyId: (await session.running.app.desktopContext()).companyId });

/** Scrolls a section of the drawer to its top, clear of the drawer's own header (for screenshots). */
function scrollBelowDrawerHeader(el: Element) {
  el.scrollIntoView({ block: 'start' });
  let box = el.parentElement;
  while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
  box?.scrollBy(0, -64);
}

/** The row of the price table for a service and a delivery kind ("door" or "point"), by tariff name. */
const priceRow = (page: Page, tariff: RegExp) => page.getByTestId('price-row').filter({ hasText: tariff }).first();

/**
 * Picks the price table's row of the tariff and waits until the form took it: prices asked again while the form
 * settles (a saved sender, the last field typed) redraw the table, and a click on a row being replaced is lost.
 */
async function choosePrice(page: Page, tariff: RegExp) {
  const row = priceRow(page, tariff);
  await expect
    .poll(async () => {
      if ((await row.getAttribute('data-selected')) !== 'true') await row.click();
      return row.getAttribute('data-selected');
    }, { timeout: 30_000 })
    .toBe('true');
}

describe('browser mode: entering an order', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(() => session?.close());

  it('creates an order to a pickup point chosen from the price table and the point picker', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'WEB-2001', recipient: 'Анна Смирнова', city: 'Санкт-Петербург', sender: true });
    const form = page.getByTestId('order-form');

    // Cash on delivery follows the items: 2 × 1500.
    const cod = form.getByLabel(labelled('Cash on delivery, ₽'));
    await expect(cod.inputValue()).resolves.toBe('3000');
    // A second place with its own item adds to it; removing the place takes it away again.
    await form.getByTestId('add-place').click();
    const second = form.getByTestId('place-card').nth(1);
    await fill(second, 'Weight, g', '300');
    await fill(second.getByTestId('item-row'), 'Description', 'Носки');
    await fill(second.getByTestId('item-row'), 'Price, ₽', '199,90');
    await expect(cod.inputValue()).resolves.toBe('3199.90');
    await second.getByTestId('remove-place').click();
    await expect(form.getByTestId('place-card').count()).resolves.toBe(1);
    await expect(cod.inputValue()).resolves.toBe('3000');

    // Prices of every service side by side; "склад-склад" of the express service goes to a point.
    await page.getByTestId('price-row').first().waitFor();
    const row = priceRow(page, /Экспресс склад-склад/);
    await expect(row.textContent()).resolves.toMatch(/point/);
    await row.click();
    await expect(row.getAttribute('data-selected')).resolves.toBe('true');
    await expect(form.getByTestId('tariff-select').inputValue()).resolves.toMatch(/101/);

    // The picker lists the service's points in the recipient's city that take this order (COD included).
    const picker = page.getByTestId('point-picker');
    await expect(picker.getByTestId('point-city').inputValue()).resolves.toBe('Санкт-Петербург');
    await expect(picker.getByTestId('point-filter-cod').isChecked()).resolves.toBe(true);
    const option = picker.getByTestId('point-option').first();
    await option.waitFor();
    await expect(option.getByTestId('point-hours').textContent()).resolves.toMatch(/Hours: .*\d\d:\d\d/);
    await option.click();
    await picker.getByTestId('point-chosen').waitFor();
    const pointId = Number(await picker.getByTestId('point-chosen').getAttribute('data-point-id'));
    expect(pointId).toBeGreaterThan(0);

    // A box too large for the point (300 + 20 + 10 cm over its 300 cm sum of sides) is flagged at the chosen point.
    const place = form.getByTestId('place-card').first();
    await fill(place, 'Length, cm', '300');
    await picker.getByTestId('point-misfit').waitFor();
    await fill(place, 'Length, cm', '30');
    await picker.getByTestId('point-misfit').waitFor({ state: 'detached' });

    // A tall window, so the screenshot shows the price table with the chosen row and the point picker below it.
    await page.setViewportSize({ width: 1366, height: 1500 });
    await page.getByTestId('delivery-fields').evaluate(scrollBelowDrawerHeader);
    await screenshot(page, 'order-entry');
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.keyboard.press('Control+Enter');

    const listRow = page.getByTestId('order-row').filter({ hasText: 'WEB-2001' });
    await listRow.waitFor({ timeout: 15_000 });
    await expect(listRow.textContent()).resolves.toMatch(/Анна Смирнова/);

    const stored = await session.running.app.services.orders.list(await companyOf(session), { limit: 10, offset: 0 });
    const order = stored.rows.find((r) => r.clientNumber === 'WEB-2001');
    expect(order).toBeDefined();
    const detail = await session.running.app.services.orders.get(await companyOf(session), order!.orderId);
    expect(detail.order).toMatchObject({ providerKey: 'sandbox-express', tariffId: 101, deliveryType: 2, pickupType: 2, pointOutId: pointId });
    expect(detail.cost).toMatchObject({ codCost: 3000, assessedCost: 3000 });
    // The form was saved as a draft while it was typed; creating the order removed it.
    await expect.poll(async () => (await session.running.app.services.drafts.list(await companyOf(session), { limit: 10, offset: 0 })).total).toBe(0);
    expect(session.pageErrors()).toEqual([]);
  });

  it('creates an order to the door with a delivery interval of the service, the sender from a saved profile', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    // The sender carried over from the last order: save it as a profile for the next ones.
    await expect(form.getByTestId('sender-fields').getByLabel(labelled('City')).inputValue()).resolves.toBe('Москва');
    await form.getByTestId('save-sender-profile').click();
    await page.getByTestId('sender-profile-name').fill('Склад на Тверской');
    await page.getByTestId('sender-profile-save').click();
    await form.getByTestId('sender-profile-select').waitFor();

    await fillOrder(page, { number: 'WEB-2002', recipient: 'Пётр Иванов', city: 'Москва' });
    // Dynamic intervals: the express service's door tariff offers dates, then the slots of a date.
    await choosePrice(page, /Экспресс склад-дверь/);
    const picker = page.getByTestId('interval-picker');
    await picker.getByTestId('interval-date').click();
    const dateOption = page.getByRole('option').first();
    await dateOption.click();
    const slot = picker.getByTestId('interval-slot').first();
    await slot.click();
    const slotText = (await slot.textContent()) ?? '';
    const [from, to] = slotText.split('–');
    await form.getByTestId('submit-order').click();
    await page.getByTestId('order-row').filter({ hasText: 'WEB-2002' }).waitFor({ timeout: 15_000 });

    const stored = await session.running.app.services.orders.list(await companyOf(session), { limit: 10, offset: 0 });
    const detail = await session.running.app.services.orders.get(await companyOf(session), stored.rows.find((r) => r.clientNumber === 'WEB-2002')!.orderId);
    expect(detail.order).toMatchObject({ providerKey: 'sandbox-express', tariffId: 102, deliveryType: 1, deliveryTimeStart: from, deliveryTimeEnd: to });
    expect(detail.order.deliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // A fresh window's form starts from the default profile.
    const profiles = await session.running.app.services.settings.listProfiles(await companyOf(session));
    expect(profiles.map((p) => [p.name, p.isDefault])).toEqual([['Склад на Тверской', true]]);
    await page.reload();
    await page.getByTestId('new-order-button').click();
    const sender = page.getByTestId('sender-fields');
    await expect.poll(() => sender.getByLabel(labelled('Name')).inputValue()).toBe('Иван Петров');
    await expect(sender.getByLabel(labelled('City')).inputValue()).resolves.toBe('Москва');
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });

  it('puts the core’s refusal on the field it concerns: an order number already used', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'WEB-2001', recipient: 'Анна Смирнова', city: 'Москва' });
    await choosePrice(page, /Экспресс дверь-дверь/);
    await page.getByTestId('submit-order').click();
    const number = page.getByTestId('order-fields').getByLabel(labelled('Order number'));
    await page.getByTestId('order-fields').getByText('An order with number WEB-2001 already exists').waitFor();
    await expect(number.getAttribute('aria-invalid')).resolves.toBe('true');
    // The cursor is put where the fix goes; typing there clears the error.
    await expect(number.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await number.fill('WEB-2003');
    await expect(number.getAttribute('aria-invalid')).resolves.not.toBe('true');
    await page.keyboard.press('Escape');
  });

  it('without prices (no answer from the calculator) says so, and the service and tariff are chosen by hand', async () => {
    const { page } = session;
    await page.route('**/app/commands/calculator.calculate', (route) => route.abort('internetdisconnected'));
    try {
      // The form reopens as the previous test left it (order WEB-2003, complete); another city asks for prices again.
      await page.getByTestId('new-order-button').click();
      const form = page.getByTestId('order-form');
      await fill(form.getByTestId('recipient-fields'), 'City', 'Казань');
      await page.getByTestId('price-table-error').waitFor();
      await expect(page.getByTestId('price-table-error').textContent()).resolves.toMatch(/Prices could not be calculated.*No connection to ShipDesk.*by hand/);
      await form.getByTestId('service-select').click();
      await page.getByRole('option', { name: /Почта/ }).click();
      await form.getByTestId('tariff-select').click();
      await page.getByRole('option', { name: /· 202$/ }).click();
      // Fixed intervals: no dates, the service's slots.
      const slot = page.getByTestId('interval-picker').getByTestId('interval-slot').first();
      await slot.click();
      await expect(page.getByTestId('interval-picker').getByTestId('interval-date').count()).resolves.toBe(0);
      await page.getByTestId('submit-order').click();
      await page.getByTestId('order-row').filter({ hasText: 'WEB-2003' }).waitFor({ timeout: 15_000 });
      const stored = await session.running.app.services.orders.list(await companyOf(session), { limit: 10, offset: 0 });
      const detail = await session.running.app.services.orders.get(await companyOf(session), stored.rows.find((r) => r.clientNumber === 'WEB-2003')!.orderId);
      expect(detail.order).toMatchObject({ providerKey: 'sandbox-post', tariffId: 202, deliveryType: 1, pickupType: 2, deliveryTimeStart: '09:00', deliveryTimeEnd: '14:00' });
      expect(detail.order.deliveryDate).toBeUndefined();
    } finally {
      await page.unroute('**/app/commands/calculator.calculate');
    }
  });

  it('shows field errors inline in Russian, and a price table in Russian', async () => {
    const ru = await openBrowserMode({ locale: 'ru-RU' });
    try {
      const { page } = ru;
      await page.getByTestId('new-order-button').click();
      const form = page.getByTestId('order-form');
      const recipient = form.getByTestId('recipient-fields');
      await fill(recipient, 'Телефон', 'abc');
      await fill(recipient, 'Город', 'Казань');
      await form.getByTestId('order-fields').getByLabel(labelled('Номер заказа')).click();
      await expect(recipient.getByText('Введите номер телефона, например +7 900 123-45-67').count()).resolves.toBe(1);
      await fill(form.getByTestId('place-card').first(), 'Вес, г', '800');
      await fill(form.getByTestId('sender-fields'), 'Город', 'Москва');
      await page.getByTestId('price-row').first().waitFor();
      await expect(page.getByTestId('price-table').textContent()).resolves.toMatch(/Служба.*Тариф.*Цена/);
      await page.setViewportSize({ width: 1366, height: 1500 });
      await page.getByTestId('order-fields').evaluate(scrollBelowDrawerHeader);
      await screenshot(page, 'order-entry-ru');
      expect(ru.pageErrors()).toEqual([]);
    } finally {
      await ru.close();
    }
  });
});
