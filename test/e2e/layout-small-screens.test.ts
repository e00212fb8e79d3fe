import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { cutTexts } from '../helpers/cut-text';
import { orderPayload } from '../helpers/payloads';
import { settled } from '../helpers/settled';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The two laptop screens most shops have: nothing a person reads may be cut there. */
const screens = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];

describe('browser mode in Russian on a laptop screen: whole texts in the header and the tables', () => {
  let session: Session;
  let shop: Caller;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    page = session.page;
    const { app } = session.running;
    shop = await app.desktopContext();
    const long = (n: string) =>
      orderPayload(n, (o) => {
        o.recipient.contactName = 'Константинопольская-Преображенская Александра Вячеславовна';
        o.recipient.city = 'Санкт-Петербург';
      });
    // a dozen orders: the header's "Проверено: 12, изменилось: 12" has two-digit counts (#15: "Проверено: 23, изменилос…" was cut at 1440)
    for (let i = 101; i <= 112; i++) await app.services.orders.create(shop, orderCreateSchema.parse(long(`ИМ-2026-000${i}`)));
    await app.outbox.drain();
    await app.services.drafts.save(shop, { id: 'draft-long', data: long('ИМ-2026-000199') as Record<string, unknown> });
    // two courier calls, one the service takes and one it refuses (a window under three hours), with a long address
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    for (const timeEnd of ['14:00', '11:00']) {
      const call = await app.dispatch('courier.create', shop, {
        providerKey: 'sandbox-express',
        date: tomorrow,
        timeStart: '10:00',
        timeEnd,
        weight: 2400,
        city: 'Санкт-Петербург',
        street: 'проспект Большевиков',
        house: '123, корпус 4',
        contactName: 'Иван Петров',
        phone: '+79161234567',
      });
      if (!call.ok) throw new Error(JSON.stringify(call.error));
    }
  });
  afterAll(() => session?.close());

  it('the measure itself sees a cut text: a title in a box narrower than it, and one past the window\'s edge', async () => {
    await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.id = 'cut-probe';
      probe.innerHTML =
        '<div style="width:60px;overflow:hidden;white-space:nowrap">Номер в службе</div>' +
        '<div style="position:fixed;left:calc(100vw - 20px);white-space:nowrap">Следующее 23:03</div>';
      document.body.append(probe);
    });
    expect(await cutTexts(page, '#cut-probe')).toEqual(['Номер в службе', 'Следующее 23:03']);
    // asked only about dates, it passes the cut title over and still sees a cut date
    await page.evaluate(() => document.getElementById('cut-probe')?.insertAdjacentHTML('beforeend', '<div style="width:40px;overflow:hidden;white-space:nowrap">27.11.2026, 08:15</div>'));
    expect(await cutTexts(page, '#cut-probe', { text: '\\d{2}\\.\\d{2}\\.\\d{4}' })).toEqual(['27.11.2026, 08:15']);
    await page.evaluate(() => document.getElementById('cut-probe')?.remove());
  });

  for (const screen of screens) {
    const size = `${screen.width}×${screen.height}`;

    it(`the header's refresh times and the orders list are whole at ${size}`, async () => {
      await page.setViewportSize(screen);
      await page.reload();
      await page.getByTestId('order-row').nth(2).waitFor();
      // a status refresh has run: the header shows when, what it found and when the next one is due
      await page.getByTestId('refresh-now').click();
      await page.getByTestId('refresh-found').filter({ hasText: /\d/ }).waitFor();
      await settled(page, '[data-testid="orders-table"]');
      await screenshot(page, `layout-orders-${screen.width}`);
      expect(await cutTexts(page, '[data-testid="refresh-status"]')).toEqual([]);
      expect(await cutTexts(page, 'header')).toEqual([]);
      // the column titles wrap rather than be cut; cells cut long names with an ellipsis and show them whole on hover
      expect(await cutTexts(page, '[data-testid="orders-table"] thead')).toEqual([]);
    });

    it(`the drafts table is whole at ${size}`, async () => {
      await page.setViewportSize(screen);
      await page.getByTestId('nav-drafts').click();
      await page.getByTestId('drafts-table').waitFor();
      await settled(page, '[data-testid="drafts-table"]');
      await screenshot(page, `layout-drafts-${screen.width}`);
      expect(await cutTexts(page, '[data-testid="drafts-table"]')).toEqual([]);
    });

    it(`the dispatch screen is whole at ${size}`, async () => {
      await page.setViewportSize(screen);
      await page.getByTestId('nav-dispatch').click();
      await page.getByTestId('dispatch-group').first().waitFor();
      await settled(page, '[data-testid="dispatch-page"]');
      await screenshot(page, `layout-dispatch-${screen.width}`);
      expect(await cutTexts(page, '[data-testid="dispatch-page"]')).toEqual([]);
    });

    it(`the courier calls table is whole at ${size}`, async () => {
      await page.setViewportSize(screen);
      await page.getByTestId('nav-orders').click();
      for (const n of ['ИМ-2026-000101', 'ИМ-2026-000102']) await page.getByTestId('order-row').filter({ hasText: n }).getByTestId('row-checkbox').check();
      await page.getByTestId('bulk-courier').click();
      const dialog = page.getByTestId('courier-dialog');
      await dialog.getByTestId('courier-calls').locator('tbody tr').nth(1).waitFor();
      // the day and times in Russian, not the operating system's 11/28/2026 and 02:00 PM
      expect(await dialog.getByTestId('courier-date').inputValue()).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(await dialog.getByTestId('courier-timeStart').inputValue()).toMatch(/^\d{2}:\d{2}$/);
      expect(await dialog.getByTestId('courier-calls').locator('tbody tr').first().locator('td').first().innerText()).toMatch(/^\d{2}\.\d{2}\.\d{4}\n10:00–1\d:00$/);
      await dialog.getByTestId('courier-calls').scrollIntoViewIfNeeded();
      await settled(page, '[data-testid="courier-dialog"] section');
      await screenshot(page, `layout-courier-${screen.width}`);
      expect(await cutTexts(page, '[data-testid="courier-calls"]')).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('bulk-clear').click();
    });
  }
});
