import type { Page } from 'playwright-core';
import { attentionReasonOf } from '../../shared/attention';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { manualClock } from '../../electron/core/clock';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { sandboxPayload } from '../helpers/sandbox-orders';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;
const dateOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A figure's number as the tile shows it. */
const tile = async (page: Page, testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));

describe('browser mode: the "Today" screen and the orders that need attention', () => {
  let session: Session;
  // Wednesday 4 March 2026, 09:00 on this machine's clock.
  const clock = manualClock(new Date(2026, 2, 4, 9).getTime());
  let seq = 0;

  const create = async (service: 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers', patch: (o: OrderCreateInput) => void = () => {}) => {
    const { app } = session.running;
    const payload = await sandboxPayload(app.db, service, `TD-${++seq}`, patch);
    return (await app.services.orders.create(await app.desktopContext(), orderCreateSchema.parse(payload))).orderId;
  };

  /** The counts worked out plainly from the orders table. */
  async function fromDatabase() {
    const rows = await session.running.app.db.selectFrom('orders').selectAll().where('state', '!=', 'deleted').execute();
    const today = dateOf(clock.now());
    return {
      createdToday: rows.filter((r) => dateOf(r.created_at) === today).length,
      createdWeek: rows.filter((r) => dateOf(r.created_at) >= '2026-03-02').length,
      attention: rows.filter((r) => r.state === 'active' && attentionReasonOf({ statusKey: r.status_key, providerNumber: r.provider_number }) && r.attention_seen_at !== r.status_changed_at).length,
      awaitingHandover: rows.filter((r) => r.state === 'active' && r.status_key === 'uploaded' && r.provider_number && r.handover_id === null).length,
    };
  }

  beforeAll(async () => {
    session = await openBrowserMode({ appOptions: { clock }, firstScreen: 'auto' });
    const { app } = session.running;
    // Two weeks ago: by now delivered or coming back.
    clock.set(new Date(2026, 1, 18, 10).getTime());
    for (let i = 0; i < 3; i++) for (const s of ['sandbox-express', 'sandbox-post', 'sandbox-lockers'] as const) await create(s);
    await app.outbox.drain();
    // Monday: on their way.
    clock.set(new Date(2026, 2, 2, 10).getTime());
    await create('sandbox-post');
    await create('sandbox-express', (o) => (o.order.deliveryDate = '2026-03-06'));
    await app.outbox.drain();
    // Today: registered, and one the service refuses (no door delivery in Владивосток).
    clock.set(new Date(2026, 2, 4, 9).getTime());
    await create('sandbox-express');
    await create('sandbox-lockers');
    await create('sandbox-express', (o) => (o.recipient.city = 'Владивосток'));
    await app.outbox.drain();
    clock.set(new Date(2026, 2, 4, 11).getTime());
    await app.services.statusRefresh.refresh({});
  });
  afterAll(() => session?.close());

  it('opens on "Today" once there are orders, with figures that match the database', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('today-page').waitFor();
    const want = await fromDatabase();
    expect(want.attention).toBeGreaterThan(1);
    expect(want.awaitingHandover).toBe(2);
    await expect.poll(() => tile(page, 'today-stat-created-today')).toBe(want.createdToday);
    expect(await tile(page, 'today-stat-created-week')).toBe(want.createdWeek);
    expect(await tile(page, 'today-stat-attention')).toBe(want.attention);
    expect(await tile(page, 'today-stat-handover')).toBe(want.awaitingHandover);
    await expect(page.getByTestId('attention-badge').getAttribute('data-count')).resolves.toBe(String(want.attention));
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Today, 04/03/2026');
    await page.getByTestId('today-times').getByRole('button').first().waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'today-en');
    expect(session.pageErrors()).toEqual([]);
  });

  it('a service bar opens exactly the orders it counts', async () => {
    const { page } = session;
    await page.getByTestId('today-period').getByText('This week').click();
    const bar = page.getByTestId('created-service-sandbox-express');
    const express = (await session.running.app.db.selectFrom('orders').select('created_at').where('provider_key', '=', 'sandbox-express').execute()).filter(
      (r) => dateOf(r.created_at) >= '2026-03-02',
    ).length;
    await bar.click();
    await expect.poll(() => page.getByTestId('orders-count').textContent()).toBe(`Orders: ${express}`);
    await page.getByTestId('nav-today').click();
    await page.getByTestId('today-page').waitFor();
  });

  it('the attention view lists them with the reason; marking one seen takes it off; a new refusal says so at once', async () => {
    const { page } = session;
    const before = (await fromDatabase()).attention;
    await page.getByTestId('today-stat-attention').click();
    await expect.poll(() => page.getByTestId('orders-count').textContent()).toBe(`Orders: ${before}`);
    const refused = page.getByTestId('order-row').filter({ has: page.locator('[data-reason="registrationFailed"]') });
    await expect(refused.count()).resolves.toBe(1);
    await expect(refused.getByTestId('attention-reason').textContent()).resolves.toMatch(/^Refused by the service · .*Владивосток/);
    await page.mouse.move(0, 0);
    await screenshot(page, 'attention-view-en');

    await refused.getByRole('checkbox').check();
    await page.getByTestId('bulk-mark-seen').click();
    await expect.poll(() => page.getByTestId('orders-count').textContent()).toBe(`Orders: ${before - 1}`);
    await expect.poll(() => page.getByTestId('attention-badge').getAttribute('data-count')).toBe(String(before - 1));

    // An order the service refuses while the window is open: a notification and the badge at once.
    await create('sandbox-express', (o) => (o.recipient.city = 'Владивосток'));
    await session.running.app.outbox.drain();
    await page.getByTestId('toast').filter({ hasText: 'New orders need attention: 1' }).waitFor();
    await expect.poll(() => page.getByTestId('attention-badge').getAttribute('data-count')).toBe(String(before));
    expect(session.pageErrors()).toEqual([]);
  });

  it('a test service\'s order says when its next status is due, and a refresh that finds nothing new says so too', async () => {
    const { page } = session;
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('filter-clear').click();
    // TD-12: registered today at 09:00 with the express test service, which takes a parcel five hours later.
    await page.getByTestId('order-row').filter({ hasText: 'TD-12' }).click();
    const note = page.getByTestId('order-detail').getByTestId('next-test-change');
    await expect(note.textContent().then((text) => text?.replace(/\s+/g, ' '))).resolves.toBe(
      'A test service: the next status, "Accepted at the delivery service", is due at 04/03/2026, 14:00. Refresh statuses after that.',
    );
    await page.mouse.move(0, 0);
    await screenshot(page, 'next-test-change-en');
    await page.keyboard.press('Escape');

    await page.getByTestId('refresh-now').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'No new statuses yet' });
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toMatch(/Test services move parcels on a schedule: order TD-\d+ becomes "[^"]+" at /);
    expect(session.pageErrors()).toEqual([]);
  });

  it('speaks Russian', async () => {
    const { page } = session;
    // COD due on each of the coming seven days (today included) and on none named: every day gets its label (#15: one was left out)
    for (let day = 4; day <= 10; day++) await create('sandbox-express', (o) => (o.order.deliveryDate = `2026-03-${String(day).padStart(2, '0')}`));
    await session.running.app.outbox.drain();
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByTestId('nav-today').click();
    await page.getByTestId('today-page').waitFor();
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Сегодня, 04.03.2026');
    await expect(page.getByTestId('attention-badge').textContent()).resolves.toMatch(/^Внимание: \d+$/);
    await page.getByTestId('today-times').getByRole('button').first().waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'today-ru');
    // #15: the COD chart's legend of three long service names ran over the list of services under it
    const legend = await page.getByTestId('today-cod-legend').boundingBox();
    const list = await page.getByTestId('today-cod').getByRole('button').first().boundingBox();
    expect(legend && list && legend.y + legend.height <= list.y).toBe(true);
    await expect(page.getByTestId('today-cod-legend').textContent()).resolves.toMatch(/Песочница Экспресс.*Песочница Почта|Песочница Почта.*Песочница Экспресс/);
    const ticks = page.getByTestId('today-cod').locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await expect(ticks.allTextContents()).resolves.toEqual(['04.03', '05.03', '06.03', '07.03', '08.03', '09.03', '10.03', 'Без даты']);
    // side by side, none over its neighbour
    const boxes = await ticks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i].left).toBeGreaterThanOrEqual(boxes[i - 1].right);
    await page.getByTestId('attention-badge').click();
    await page.getByTestId('attention-reason').first().waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'attention-view-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
    expect(session.pageErrors()).toEqual([]);
  });

  it('the settings choose the theme (light, dark, as the system) and the first screen', async () => {
    const { page } = session;
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-preferences').click();
    await page.getByTestId('appearance-theme').getByText('Dark', { exact: true }).click();
    await expect.poll(scheme).toBe('dark');
    await page.getByTestId('appearance-first-screen').getByText('Orders', { exact: true }).click();
    await page.mouse.move(0, 0);
    await screenshot(page, 'settings-appearance-dark');
    // A new window of this shop opens dark, on the orders list.
    await page.reload();
    await page.getByTestId('orders-count').waitFor();
    expect(await scheme()).toBe('dark');
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-preferences').click();
    await page.getByTestId('appearance-theme').getByText('Light', { exact: true }).click();
    await expect.poll(scheme).toBe('light');
    await page.getByTestId('appearance-theme').getByText('As the system').click();
    await page.getByTestId('appearance-first-screen').getByText('"Today" once there are orders').click();
    await page.reload();
    await page.getByTestId('today-page').waitFor();
    expect(session.pageErrors()).toEqual([]);
  });
});
