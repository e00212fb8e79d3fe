import { manualClock } from '../../electron/core/clock';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** A shop working in Russian: what the order form, the detail and the list show in its words and formats. */
describe('browser mode: a shop\'s day in Russian', () => {
  // The core's time is ours to move: the sandbox services' parcels travel by it.
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: Caller;
  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock } });
    shop = await session.running.app.desktopContext();
  });
  afterAll(() => session?.close());

  it('a new order takes street, house and office from the default sender profile\'s one-line address', async () => {
    const { page, running } = session;
    const created = await running.app.dispatch('senderProfiles.create', shop, {
      name: 'Склад на Тверской',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва', addressString: 'ул. Тверская, д. 7, корп. 2, оф. 12' },
    });
    expect(created.ok).toBe(true);
    await page.reload();
    await page.getByTestId('new-order-button').click();
    const sender = page.getByTestId('order-form').getByTestId('sender-fields');
    const box = (label: string) => sender.getByLabel(new RegExp(`^${label}( \\*)?$`));
    await expect.poll(() => box('Улица').inputValue()).toBe('ул. Тверская');
    await expect(box('Город').inputValue()).resolves.toBe('Москва');
    await expect(box('Дом').inputValue()).resolves.toBe('7 корп. 2');
    await expect(box('Квартира / офис').inputValue()).resolves.toBe('12');
    await sender.scrollIntoViewIfNeeded();
    await screenshot(page, 'russian-sender-profile');
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });

  it('the status history shows when the service recorded each status, and when ShipDesk learned of it as a second time', async () => {
    const { page, running } = session;
    const { orderId } = await running.app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('HIST-1')));
    await running.app.outbox.drain();
    clock.advance(4 * 86_400_000); // four days on, the parcel has moved several times; one refresh learns it all
    const refreshed = await running.app.dispatch('statuses.refreshNow', shop, {});
    expect(refreshed.ok).toBe(true);
    const history = await running.app.dispatch('statuses.history', shop, { orderId });
    const rows = (history as { ok: true; value: { rows: { created: string; createdProvider: string }[] } }).value.rows;
    const serviceTimes = rows.map((r) => r.createdProvider).filter(Boolean);
    expect(new Set(serviceTimes).size).toBeGreaterThan(2);

    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'HIST-1' }).click();
    const timeline = page.getByTestId('order-detail').getByTestId('detail-timeline');
    await timeline.getByTestId('timeline-item').nth(2).waitFor();
    const shown = await timeline.getByTestId('timeline-time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    // Newest first by the service's time, each its own.
    expect(shown).toEqual([...shown].sort().reverse());
    expect(new Set(shown).size).toBeGreaterThan(2);
    expect(await timeline.getByTestId('timeline-learned').count()).toBeGreaterThan(1);
    await expect(timeline.getByTestId('timeline-learned').first().textContent()).resolves.toMatch(/^ShipDesk узнал об этом \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    // the service's words, not its raw code beside them ("Создан CREATED"): the code only on hover
    const said = await timeline.getByTestId('timeline-provider').allInnerTexts();
    expect(said.length).toBeGreaterThan(2);
    for (const line of said) expect(line).toMatch(/^Служба: [А-ЯЁа-яё ,—-]+$/);
    const coded = timeline.locator('[data-testid="timeline-provider"][data-provider-code]').first();
    const code = await coded.getAttribute('data-provider-code');
    expect(code).toMatch(/^[A-Z_]+$/);
    await timeline.scrollIntoViewIfNeeded();
    await coded.hover();
    await expect.poll(() => page.getByRole('tooltip').innerText()).toBe(`Код статуса в службе: ${code}`);
    await screenshot(page, 'russian-status-history');
    await page.keyboard.press('Escape');
  });

  it('dates and amounts are written the Russian way: list, detail, the COD box and the date filters with a Russian calendar', async () => {
    const { page, running } = session;
    const nbsp = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
    const made = await running.app.dispatch('orders.create', shop, orderPayload('FMT-1', (o) => {
      Object.assign(o.order, { deliveryDate: '2026-11-27', deliveryTimeStart: '18:00', deliveryTimeEnd: '21:00' });
      Object.assign(o.cost, { codCost: 2499.9, deliveryCost: undefined });
      o.places[0].items = [{ description: 'Футболка', quantity: 2, assessedCost: 1249.95, cost: 1249.95, weight: 300 }];
    }));
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    await page.reload();
    const row = page.getByTestId('order-row').filter({ hasText: 'FMT-1' });
    await expect.poll(async () => nbsp(await row.textContent())).toContain('2 499,90 ₽');

    await row.click();
    const drawer = page.getByTestId('order-detail');
    await expect.poll(async () => nbsp(await drawer.getByTestId('detail-delivery').textContent())).toBe('Доставка до двери · Доставка 27.11.2026 18:00–21:00');
    await expect(drawer.getByTestId('detail-cost-cod').textContent().then(nbsp)).resolves.toBe('2 499,90 ₽');
    await page.keyboard.press('Escape');

    // The created-date filters are typed and picked as 27.11.2026, the calendar in Russian.
    const from = page.getByTestId('filter-date-from');
    await from.fill('01.01.2020');
    await from.press('Tab');
    await expect(from.inputValue()).resolves.toBe('01.01.2020');
    await row.waitFor();
    await page.getByTestId('filter-date-to').click();
    await page.getByText(/^(январь|февраль|март|апрель|май|июнь|июль|август|сентябрь|октябрь|ноябрь|декабрь) \d{4}$/).first().waitFor();
    await expect(page.getByText('пн', { exact: true }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'russian-date-filter');
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-clear').click();

    // The cash on delivery the form counts from the items is written with a comma.
    await page.getByTestId('new-order-button').click();
    const item = page.getByTestId('order-form').getByTestId('item-row').first();
    await item.getByLabel(/^Цена, ₽( \*)?$/).fill('1249,95');
    await item.getByLabel(/^Кол-во( \*)?$/).fill('2');
    await expect(page.getByTestId('order-form').getByLabel(/^Наложенный платёж, ₽( \*)?$/).inputValue()).resolves.toBe('2499,90');
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });
});
