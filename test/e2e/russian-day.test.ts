import { manualClock } from '../../electron/core/clock';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** A shop working in Russian: what the order form, the detail and the list show in its words and formats. */
describe('browser mode: a shop\'s day in Russian', () => {
  // The core's time is ours to move: the sandbox services' parcels travel by it.
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: { companyId: number };
  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock } });
    shop = { companyId: (await session.running.app.services.companies.byToken('e2e-token-12345'))!.companyId };
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
    await timeline.scrollIntoViewIfNeeded();
    await screenshot(page, 'russian-status-history');
    await page.keyboard.press('Escape');
  });
});
