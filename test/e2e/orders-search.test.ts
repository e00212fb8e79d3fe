import type { Page } from 'playwright-core';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The client numbers of the rows on screen, top to bottom. */
const shownNumbers = (page: Page) =>
  page.getByTestId('order-row').evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(2)')?.textContent ?? ''));

describe('browser mode: the orders search finds what a shop types (in Russian)', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    const { app } = session.running;
    const shop = await app.desktopContext();
    const orders: Array<[string, (o: ReturnType<typeof orderPayload>) => void]> = [
      ['UFA-1', (o) => Object.assign(o.recipient, { contactName: 'Ольга Семёнова', phone: '89161234567', city: 'Уфа', street: 'ул. Ленина', email: 'olga.s@mail.ru' })],
      ['MSK-2', (o) => Object.assign(o.recipient, { contactName: 'Игорь Ким', phone: '+7 (917) 444-33-22', city: 'Москва', street: 'Тверская', email: 'kim@example.ru' })],
      ['SPB-3', (o) => Object.assign(o.recipient, { contactName: 'Анна Смирнова', phone: '+79219876543', city: 'Санкт-Петербург', street: 'Невский проспект' })],
    ];
    for (const [number, patch] of orders) {
      const created = await app.dispatch('orders.create', shop, orderPayload(number, patch));
      if (!created.ok) throw new Error(JSON.stringify(created.error));
    }
    await session.page.reload();
  });
  afterAll(() => session?.close());

  it.each([
    ['Уфа', ['UFA-1']],
    ['Москва', ['MSK-2']],
    ['+7 (916) 123-45-67', ['UFA-1']],
    ['917 444', ['MSK-2']],
    ['семенова', ['UFA-1']],
    ['olga.s@mail', ['UFA-1']],
    ['невский', ['SPB-3']],
  ])('"%s" finds %j', async (text, expected) => {
    const { page } = session;
    await page.getByTestId('search-input').fill(text);
    await expect.poll(() => shownNumbers(page), { timeout: 10_000 }).toEqual(expected);
    if (text === '+7 (916) 123-45-67') await screenshot(page, 'orders-search-phone');
  });
});
