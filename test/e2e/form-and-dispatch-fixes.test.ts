import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema } from '../../shared/schemas/order';
import { moscowDay } from '../../shared/time';
import { russianPostOrder } from '../fakes/russian-post/orders';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_USER_KEY, startFakeRussianPost, type FakeRussianPost } from '../fakes/russian-post/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;
const DAY = 24 * 60 * 60 * 1000;

/** Whether a click at the middle of the element reaches it (nothing, such as a drawer's overlay, lies over it). */
const reachable = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return top !== null && element.contains(top);
  });

/** "2026-11-27" as the Russian window writes it: "27.11.2026". */
const russianDay = (iso: string) => iso.split('-').reverse().join('.');

describe('browser mode: the order form leaves the header in reach, a closed copy is not the next new order, Russian Post sends by the Moscow day', () => {
  let session: Session;
  let shop: Caller;
  let page: Page;
  let fake: FakeRussianPost;

  beforeAll(async () => {
    fake = await startFakeRussianPost();
    session = await openBrowserMode({ locale: 'ru-RU' });
    page = session.page;
    await page.setViewportSize({ width: 1366, height: 768 });
    const { app } = session.running;
    shop = await app.desktopContext();
    await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('1001')));
    await app.outbox.drain();
    await page.reload();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('with the new-order form open, the header\'s language switch is not covered and switches the language of the open form', async () => {
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    await form.waitFor();
    await expect(page.locator('#order-form-title').textContent()).resolves.toBe('Новый заказ');
    expect(await reachable(page, 'language-switch')).toBe(true);
    await screenshot(page, 'fixes-form-open-header-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
    await expect.poll(() => page.locator('#order-form-title').textContent()).toBe('New order');
    expect(await form.isVisible()).toBe(true);
    await screenshot(page, 'fixes-form-open-header-en');
    await page.getByTestId('language-switch').getByText('RU').click();
    await expect.poll(() => page.locator('#order-form-title').textContent()).toBe('Новый заказ');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(session.pageErrors()).toEqual([]);
  });

  it('a copied order closed with Esc is not what "Новый заказ" opens: a blank form with the next number; a new order being typed is still kept when closed', async () => {
    const recipientName = () => page.getByTestId('order-form').getByTestId('recipient-fields').getByLabel(/^Получатель|^ФИО|^Имя/).first();
    const number = () => page.getByTestId('order-form').getByTestId('order-fields').getByRole('textbox').first();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').filter({ hasText: '1001' }).click();
    await page.getByTestId('order-detail').getByTestId('detail-copy-order').click();
    await expect.poll(() => recipientName().inputValue()).toBe('Анна Смирнова');
    // The order's card stays open under the copy; the header is still in reach over both.
    expect(await reachable(page, 'language-switch')).toBe(true);
    await screenshot(page, 'fixes-copy-open');
    await page.keyboard.press('Escape');
    await page.getByTestId('order-form').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByTestId('order-detail').waitFor({ state: 'detached' });

    await page.getByTestId('new-order-button').click();
    await expect.poll(() => number().inputValue()).toBe('1002');
    expect(await recipientName().inputValue()).toBe('');
    await screenshot(page, 'fixes-new-after-copy');

    // The user's own new order, closed, comes back as they left it (and is its autosaved draft).
    await recipientName().fill('Пётр Иванов');
    await page.keyboard.press('Escape');
    await page.getByTestId('order-form').waitFor({ state: 'detached' });
    await page.getByTestId('new-order-button').click();
    await expect.poll(() => recipientName().inputValue()).toBe('Пётр Иванов');
    await page.keyboard.press('Escape');
    await page.getByTestId('order-form').waitFor({ state: 'detached' });
    expect(session.pageErrors()).toEqual([]);
  });

  it('at 21:30 UTC the dispatch screen offers Moscow\'s day for a Russian Post batch, and a past day is refused in Russian', async () => {
    const { app } = session.running;
    const created = await app.dispatch('connections.create', shop, {
      providerKey: 'russian-post',
      name: 'Почта России',
      baseUrl: fake.url,
      credentials: { accessToken: FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY },
      settings: { postofficeCode: FAKE_POST_OFFICE },
    });
    expect(created.ok).toBe(true);
    await app.services.orders.create(shop, orderCreateSchema.parse(russianPostOrder('RP-FIX-1')));
    await app.outbox.drain();

    // The page's clock at the next 21:30 UTC: the computer's (UTC) day is still the day before Moscow's.
    const utcDay = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const evening = Date.parse(`${utcDay}T21:30:00Z`);
    await page.clock.setFixedTime(evening);
    await page.reload();
    await page.getByTestId('nav-dispatch').click();
    const group = page.locator('[data-testid="dispatch-group"]').filter({ has: page.getByTestId('dispatch-batch-form') }).first();
    const date = group.getByTestId('dispatch-batch-date');
    await date.waitFor();
    // The box writes the day the Russian way (27.11.2026), whatever the browser's locale.
    expect(await date.inputValue()).toBe(russianDay(moscowDay(evening)));
    expect(moscowDay(evening)).not.toBe(utcDay);

    // The core counts by its own clock: yesterday in Moscow now is past.
    const yesterday = moscowDay(Date.now() - DAY);
    await date.fill(russianDay(yesterday));
    await date.press('Tab');
    await group.getByTestId('dispatch-form-batches').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Дата отправки' });
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toContain(`Дата отправки ${russianDay(yesterday)} уже прошла: Почта России считает дни по московскому времени`);
    await screenshot(page, 'fixes-dispatch-past-date');
    expect(fake.batches()).toEqual([]);
    expect(session.pageErrors()).toEqual([]);
  });
});
