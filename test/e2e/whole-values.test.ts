import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { manualClock } from '../../electron/core/clock';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { settled } from '../helpers/settled';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/**
 * Values a person cannot read whole inside `selector`: a text wider than its box by any fraction of a pixel (cut, or
 * an ellipsis), a box lower than its lines (a clamp), a cell narrower than what it holds, or a word broken across
 * two lines (a long number may wrap at its hyphens, «Владивосток» may not become «Владивосто / к»).
 */
const cutValues = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((roots) => {
    const cut: string[] = [];
    const lines = (range: Range) => new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    for (const root of roots) {
      for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')] as HTMLElement[]) {
        const texts = [...el.childNodes].filter((n): n is Text => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
        // the service's own free-text words beside a reason: two lines of them, the whole on hover
        if (!texts.length || el.getClientRects().length === 0 || el.closest('[data-free-text]')) continue;
        const box = getComputedStyle(el).display === 'inline' ? (el.parentElement ?? el) : el;
        const style = getComputedStyle(box);
        const inner = box.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
        const whole = document.createRange();
        whole.selectNodeContents(el);
        const textWider = [...whole.getClientRects()].some((r) => r.width > inner + 0.25);
        const cell = el.closest('td, th') as HTMLElement | null;
        const wider = textWider || box.scrollWidth > box.clientWidth || (cell !== null && cell.scrollWidth > cell.clientWidth);
        const lower = box.scrollHeight > box.clientHeight + 1 && style.overflowY !== 'visible';
        const broken = texts.some((node) =>
          [...(node.textContent ?? '').matchAll(/[^\s\-‐–]+/g)].some((word) => {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            return lines(range) > 1;
          }),
        );
        if (wider || lower || broken) cut.push((el.textContent ?? '').trim());
      }
    }
    return [...new Set(cut)];
  });

/** A laptop's screen: the orders' numbers, cities and statuses are read whole in every list (#15 item 11). */
describe('browser mode in Russian at 1366×768: every list shows long numbers, cities and statuses whole', () => {
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: Caller;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock } });
    page = session.page;
    const { app } = session.running;
    shop = await app.desktopContext();
    const create = async (number: string, city: string, name: string) => {
      const payload = await sandboxPayload(app.db, 'sandbox-express', number, (o) => {
        o.recipient.city = city;
        o.recipient.contactName = name;
      });
      await app.services.orders.create(shop, orderCreateSchema.parse(payload));
    };
    // enough orders for the list to scroll (a scrollbar takes its width from the columns); the long ones newest, on top
    for (let i = 130; i < 145; i++) await create(`OE-2026-11-000${i}`, 'Екатеринбург', 'Петров Пётр');
    await create('OE-2026-11-000123', 'Санкт-Петербург', 'Иванова Мария Петровна');
    await create('OE-2026-11-000124', 'Ростов-на-Дону', 'Смирнов Алексей Викторович');
    // refused by the service (no door delivery there): «Ошибка передачи в службу доставки», in the attention view
    await create('OE-2026-11-000125', 'Владивосток', 'Кузнецова Екатерина Андреевна');
    await app.outbox.drain();
    await app.services.drafts.save(shop, {
      id: 'draft-long',
      data: (await sandboxPayload(app.db, 'sandbox-express', 'OE-2026-11-000126', (o) => (o.recipient.city = 'Ростов-на-Дону'))) as Record<string, unknown>,
    });
    await page.setViewportSize({ width: 1366, height: 768 });
  });
  afterAll(() => session?.close());

  it('the orders list', async () => {
    await page.reload();
    const table = page.getByTestId('orders-table');
    await page.getByTestId('order-row').filter({ hasText: 'OE-2026-11-000125' }).waitFor();
    await settled(page, '[data-testid="orders-table"]');
    await screenshot(page, 'whole-orders-1366');
    const text = await table.locator('tbody').innerText();
    for (const value of ['OE-2026-11-000123', 'Санкт-Петербург', 'Ростов-на-Дону', 'Иванова Мария Петровна']) expect(text.replace(/\s+/g, ' ')).toContain(value);
    expect(await cutValues(page, '[data-testid="orders-table"]')).toEqual([]);
  });

  it('the orders that need attention, with the refusal\'s reason', async () => {
    await page.getByTestId('attention-badge').click();
    await page.getByTestId('attention-reason').first().waitFor();
    await settled(page, '[data-testid="orders-table"]');
    await screenshot(page, 'whole-attention-1366');
    await expect(page.getByTestId('order-row').filter({ hasText: 'OE-2026-11-000125' }).innerText()).resolves.toContain('Ошибка передачи');
    // the refusal's words in Russian (by key), not the core's English
    await expect(page.getByTestId('attention-reason').first().textContent()).resolves.toBe(
      'Служба не приняла заказ · Песочница Экспресс (тест) отказалась принять заказ: Получатель › Город: Песочница Экспресс (тест) не доставляет до двери в городе Владивосток',
    );
    expect(await cutValues(page, '[data-testid="orders-table"]')).toEqual([]);
    await page.getByTestId('filter-clear').click();
  });

  it('the drafts', async () => {
    await page.getByTestId('nav-drafts').click();
    await page.getByTestId('drafts-table').waitFor();
    await settled(page, '[data-testid="drafts-table"]');
    await screenshot(page, 'whole-drafts-1366');
    await expect(page.getByTestId('drafts-table').innerText()).resolves.toContain('OE-2026-11-000126');
    expect(await cutValues(page, '[data-testid="drafts-table"]')).toEqual([]);
  });

  it('the dispatch screen', async () => {
    await page.getByTestId('nav-dispatch').click();
    await page.getByTestId('dispatch-group').first().waitFor();
    await settled(page, '[data-testid="dispatch-page"]');
    await screenshot(page, 'whole-dispatch-1366');
    expect(await cutValues(page, '[data-testid="dispatch-page"]')).toEqual([]);
  });

  it('the orders stuck for days, in the header\'s list', async () => {
    clock.advance(8 * 86_400_000); // no new status for eight days: past the five-day threshold
    await page.reload();
    await page.getByTestId('stuck-orders').click();
    const list = page.getByTestId('stuck-orders-list');
    await list.getByTestId('stuck-order').filter({ hasText: 'OE-2026-11-000123' }).waitFor();
    await settled(page, '[data-testid="stuck-orders-list"]');
    await screenshot(page, 'whole-stuck-1366');
    expect(await cutValues(page, '[data-testid="stuck-orders-list"]')).toEqual([]);
    expect(session.pageErrors()).toEqual([]);
  });
});
