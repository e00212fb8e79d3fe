import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { manualClock } from '../../electron/core/clock';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { settled } from '../helpers/settled';
import { latinAllowList, untranslatedOnScreen } from '../helpers/latin-words';
import { orderPayload } from '../helpers/payloads';
import { sandboxPayload } from '../helpers/sandbox-orders';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;


/**
 * Besides the common list: the sandbox service's cargo types, codes the shop types into the "Тип груза" box as its
 * description lists them, and this computer's own name, which the LAN settings offer as an example.
 */
const allowed = new Set([...latinAllowList, 'general', 'fragile', 'documents', 'dangerous', ...(hostname().match(/[A-Za-z]+/g) ?? [])]);

/**
 * Every screen of a shop's day, in Russian, with real content: no text the user sees is in Latin letters
 * unless it is a name, a code, a number or on the explicit allow-list (test/helpers/latin-words.ts).
 */
describe('browser mode: every screen in Russian has no untranslated English', () => {
  const clock = manualClock(new Date(2026, 10, 24, 10).getTime());
  let session: Session;
  let shop: Caller;
  let page: Page;
  let dir: string;
  let seq = 0;
  const orderIds: Record<string, string> = {};

  const create = async (name: string, service: 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers', patch: (o: OrderCreateInput) => void = () => {}) => {
    const { app } = session.running;
    const payload = await sandboxPayload(app.db, service, `РУ-${++seq}`, patch);
    orderIds[name] = (await app.services.orders.create(shop, orderCreateSchema.parse(payload))).orderId;
  };

  /** Fails softly with every untranslated text of the screen, so one run lists them all. */
  async function expectRussian(screen: string) {
    await page.mouse.move(0, 0);
    await screenshot(page, `russian-everywhere-${screen}`);
    const found = await untranslatedOnScreen(page, allowed);
    expect.soft(found, `untranslated on "${screen}"`).toEqual([]);
  }

  const closeOverlays = async () => {
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  };

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock }, firstScreen: 'orders' });
    page = session.page;
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-russian-everywhere-'));
    const { app } = session.running;
    shop = await app.desktopContext();
    const profile = await app.dispatch('senderProfiles.create', shop, {
      name: 'Склад на Тверской',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва', region: 'Москва', street: 'ул. Тверская', house: '7' },
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    // A week ago: delivered by now.
    clock.set(new Date(2026, 10, 17, 10).getTime());
    await create('delivered', 'sandbox-express');
    await create('post', 'sandbox-post');
    await app.outbox.drain();
    // Today: registered, at a locker, refused by the service (no door delivery in Владивосток), canceled.
    clock.set(new Date(2026, 10, 24, 10).getTime());
    await create('registered', 'sandbox-express');
    await create('locker', 'sandbox-lockers');
    await create('failed', 'sandbox-express', (o) => (o.recipient.city = 'Владивосток'));
    await create('canceled', 'sandbox-express');
    await app.outbox.drain();
    const canceled = await app.dispatch('orders.cancel', shop, { orderId: orderIds.canceled });
    if (!canceled.ok) throw new Error(JSON.stringify(canceled.error));
    await app.outbox.drain();
    await app.services.statusRefresh.refresh({});
    await app.services.drafts.save(shop, { id: 'draft-1', data: orderPayload('ЧЕРН-1') as Record<string, unknown> });
    await app.services.drafts.save(shop, { id: 'draft-2', data: { order: { clientNumber: 'ЧЕРН-2' } } });
  });
  afterAll(async () => {
    await session?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the orders list, its menus and popovers', async () => {
    await page.reload();
    await page.getByTestId('order-row').first().waitFor();
    await expectRussian('orders');
    await page.getByTestId('columns-button').click();
    await page.getByTestId('columns-menu').waitFor();
    await expectRussian('orders-columns-menu');
    await closeOverlays();
    await page.getByTestId('identity-button').click();
    await expectRussian('identity-menu');
    await closeOverlays();
    await page.getByTestId('filter-status').click();
    await expectRussian('orders-status-filter');
    await closeOverlays();
    await page.getByTestId('order-row').first().getByTestId('row-checkbox').click();
    await page.getByTestId('bulk-bar').waitFor();
    await expectRussian('orders-bulk-bar');
    await page.getByTestId('bulk-clear').click();
  });

  it('the order detail of a registered, a refused, a canceled and a delivered order', async () => {
    for (const name of ['registered', 'failed', 'canceled', 'delivered', 'locker']) {
      await page.locator(`[data-testid="order-row"][data-order-id="${orderIds[name]}"]`).click();
      await page.getByTestId('order-detail').getByTestId('detail-timeline').waitFor();
      await settled(page, '[data-testid="order-detail"]');
      await expectRussian(`detail-${name}`);
      await closeOverlays();
      await page.getByTestId('order-detail').waitFor({ state: 'detached' });
    }
  });

  it('the "Today" dashboard', async () => {
    await page.getByTestId('nav-today').click();
    await page.getByTestId('today-page').waitFor();
    await page.getByTestId('today-times').getByRole('button').first().waitFor();
    await expectRussian('today');
  });

  it('the dispatch screen and the courier call', async () => {
    await page.getByTestId('nav-dispatch').click();
    await page.getByTestId('dispatch-group').first().waitFor();
    await expectRussian('dispatch');
    await page.getByTestId('dispatch-group').first().getByTestId('dispatch-courier').click();
    const dialog = page.getByTestId('courier-dialog');
    await expect.poll(() => dialog.getByTestId('courier-city').inputValue()).not.toBe('');
    await expectRussian('courier-dialog');
    await dialog.getByTestId('courier-submit').click();
    await dialog.getByTestId('courier-calls').locator('tbody tr').first().waitFor();
    await expectRussian('courier-dialog-with-call');
    await closeOverlays();
  });

  it('the drafts and the order form with its price comparison', async () => {
    await page.getByTestId('nav-drafts').click();
    await page.getByTestId('draft-row').first().waitFor();
    await expectRussian('drafts');
    await page.getByTestId('draft-row').filter({ hasText: 'ЧЕРН-1' }).getByTestId('draft-open').click();
    const form = page.getByTestId('order-form');
    await form.getByTestId('price-row').first().waitFor();
    await expectRussian('order-form-prices');
    await closeOverlays();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await page.getByTestId('order-form').waitFor();
    await expectRussian('order-form-blank');
    await closeOverlays();
  });

  it('every settings tab', async () => {
    await page.getByTestId('nav-settings').click();
    for (const tab of ['company', 'senders', 'connections', 'api', 'users', 'lan', 'preferences', 'print', 'data']) {
      await page.getByTestId(`settings-tab-${tab}`).click();
      await expect.poll(() => page.getByRole('tabpanel').locator('.mantine-Loader-root').count()).toBe(0);
      await expectRussian(`settings-${tab}`);
    }
  });

  it('the import wizard at each step', async () => {
    const file = join(dir, 'заказы.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Заказы');
    ws.addRow(['Номер заказа', 'Контактное лицо', 'Телефон покупателя', 'Полный адрес доставки', 'Доставка', 'Название товара', 'Количество', 'Цена продажи', 'Сумма к оплате', 'Вес товара']);
    ws.addRow(['2001', 'Анна Семёнова', '+7 (916) 123-45-67', 'г. Москва, ул. Тверская, д. 7, кв. 12', 'До двери', 'Футболка', 2, 995, 1990, 600]);
    ws.addRow(['2002', 'Мария Петрова', '+79031112233', 'г. Омск, ул. Ленина, д. 5', 'До двери', 'Платье', 1, 3200, 3200, 400]);
    await wb.xlsx.writeFile(file);
    await page.getByTestId('nav-import').click();
    await page.getByTestId('import-template').waitFor();
    await expectRussian('import-file');
    await page.getByTestId('import-file-input').setInputFiles(file);
    await page.getByTestId('import-preview-grid').waitFor();
    await page.getByTestId('import-provider').click();
    await page.getByRole('option', { name: /Экспресс/ }).first().click();
    await expectRussian('import-preview');
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-mapping').waitFor();
    await page.getByTestId('map-default-order.tariffId').click();
    await page.getByRole('option', { name: 'Экспресс дверь-дверь' }).click();
    await page.getByTestId('import-show-optional').click();
    await expectRussian('import-columns');
    await expect(page.getByTestId('import-missing').count(), await page.getByTestId('import-missing').allTextContents().then(String)).resolves.toBe(0);
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-dry-summary').waitFor({ timeout: 60_000 });
    await expectRussian('import-check');
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-result').waitFor({ timeout: 60_000 });
    await expectRussian('import-result');
    expect(session.pageErrors()).toEqual([]);
  });
});
