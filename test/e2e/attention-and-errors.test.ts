import ExcelJS from 'exceljs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { manualClock } from '../../electron/core/clock';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { cdekOrder } from '../fakes/cdek/orders';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';
import { orderPayload } from '../helpers/payloads';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { settled } from '../helpers/settled';
import { bulkCancel, chooseRussian, createdOrder } from './russian-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const hour = 60 * 60 * 1000;
/** English the core or the window used to show: none of it may reach these Russian screens. */
const english = /\b(must be|is required|refused|could not|cannot|unique|Order|VALIDATION|Bad request|is empty)\b/;

// A shop's export with Russian words in its cells and rows a person got wrong: a weight in words, a phone
// that is not one, a delivery kind the app does not know, an empty name; and a city the service does not serve.
const titles = ['Номер заказа', 'Контактное лицо', 'Телефон покупателя', 'Полный адрес доставки', 'Доставка', 'Название товара', 'Количество', 'Цена продажи', 'Сумма к оплате', 'Вес товара'];
const rows: (string | number | null)[][] = [
  ['2001', 'Анна Семёнова', '+7 (916) 123-45-67', 'г. Москва, ул. Тверская, д. 7, кв. 12', 'До двери', 'Футболка', 2, 995, 1990, 600],
  ['2002', 'Олег Иванов', '89161234567', 'г. Казань, ул. Баумана, д. 1', 'курьер', 'Книга', 1, 650, 650, 'тяжёлый'],
  ['2003', 'Мария Петрова', 'позвонить', 'г. Санкт-Петербург, Невский пр., д. 28', 'До двери', 'Платье', 1, 3200, 3200, 400],
  ['2004', 'Илья Смирнов', '+79035556677', 'г. Омск, ул. Ленина, д. 5', 'доставка курьером', 'Кеды', 1, 4100, 4100, 900],
  ['2005', 'Ольга Кузнецова', '+79264445566', 'г. Екатеринбург, ул. Малышева, д. 3', 'телепортом', 'Рюкзак', 1, 2500, 2500, 700],
  ['2006', null, '+79167778899', 'г. Казань, ул. Пушкина, д. 10', 'Курьер', 'Кружка', 1, 500, 500, 450],
  ['2007', 'Павел Орлов', '+79161112233', 'г. Москва, ул. Арбат, д. 1', 'до двери', 'Шарф', 1, 1200, 1200, 300],
];
/** The sheet row of each order (the titles are row 1): 2001 is row 2. */
const sheetRow = (n: string) => rows.findIndex((r) => r[0] === n) + 2;

async function shopExport(path: string) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Заказы');
  ws.addRow(titles);
  for (const r of rows) ws.addRow(r);
  await wb.xlsx.writeFile(path);
}

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('browser mode in Russian: what went wrong, said where the shop looks', () => {
  const clock = manualClock(Date.now());
  let session: Session;
  let shop: Caller;
  let page: Page;
  let dir: string;

  const create = (payload: OrderCreateInput) => createdOrder(session.running, shop, payload);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-attention-'));
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { clock } });
    page = session.page;
    shop = await session.running.app.desktopContext();
    await chooseRussian(page, session.running, shop);
  });
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second order with a number already taken is refused with the Russian banner naming the number', async () => {
    const { app } = session.running;
    await create(orderPayload('1001'));
    await app.outbox.drain();
    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: '1001' }).click();
    await page.getByTestId('order-detail').getByTestId('detail-copy-order').click();
    const form = page.getByTestId('order-form');
    const number = form.getByTestId('order-fields').getByRole('textbox').first();
    await expect.poll(() => number.inputValue()).toBe('1002');
    await number.fill('1001');
    await form.getByTestId('price-row').filter({ hasText: /Экспресс дверь-дверь/ }).first().click();
    await page.getByTestId('submit-order').click();
    const banner = form.getByTestId('order-form-error');
    await banner.waitFor();
    await screenshot(page, 'attention-duplicate-number-ru');
    // the banner says what failed; the number's field says why, by key (not the wire's English)
    expect((await banner.innerText()).match(english)?.[0]).toBeUndefined();
    await expect(form.getByTestId('order-fields').getByText('Заказ с номером 1001 уже есть').count()).resolves.toBe(1);
    // nothing written: still the one order 1001
    const stored = await app.services.orders.list(shop, { limit: 50, offset: 0 });
    expect(stored.rows.filter((r) => r.clientNumber === '1001')).toHaveLength(1);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    if (await page.getByTestId('order-detail').count()) await page.keyboard.press('Escape');
    await page.getByTestId('order-detail').waitFor({ state: 'detached' });
  });

  it('the import check names each bad row in Russian, "ready" only for the rows the service takes; the errors file says the same', async () => {
    const { app } = session.running;
    const profile = await app.dispatch('senderProfiles.create', shop, {
      name: 'Склад на Тверской',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва', region: 'Москва', street: 'ул. Тверская', house: '7' },
    });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    const file = join(dir, 'заказы-магазина.xlsx');
    await shopExport(file);

    await page.getByTestId('nav-import').click();
    await page.getByTestId('import-file-input').setInputFiles(file);
    await page.getByTestId('import-preview-grid').waitFor();
    await choose(page, 'import-provider', /Экспресс/);
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-mapping').waitFor();
    await choose(page, 'map-default-order.tariffId', 'Экспресс дверь-дверь');
    await expect(page.getByTestId('import-missing').count()).resolves.toBe(0);

    await page.getByTestId('import-next').click();
    await page.getByTestId('import-dry-summary').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('import-dry-summary').textContent()).resolves.toMatch(/Заказов в файле: 7\. Готовы: 2\. С ошибками: 5\./);
    const errors = await page
      .getByTestId('import-dry-errors')
      .getByTestId('import-result-row')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-row') ?? '', e.textContent ?? '']));
    expect(errors).toEqual([
      ['3', '32002Товары › Вес, г: Введите число (ячейка J3: «тяжёлый»)'],
      ['4', '42003Получатель › Телефон: Введите номер телефона, например +7 900 123-45-67 (ячейка C4: «позвонить»)'],
      ['5', '52004Получатель › Город: Песочница Экспресс (тест) не доставляет до двери в городе Омск (из поля Получатель › Адрес (ячейка D5: «г. Омск, ул. Ленина, д. 5»))'],
      ['6', '62005Заказ › Доставка: Напишите «до двери» или «ПВЗ» (или 1, 2) (ячейка E6: «телепортом»)'],
      ['7', '72006Получатель › ФИО: Заполните поле (ячейка B7 пуста)'],
    ]);
    for (const [, text] of errors) expect(text.match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'attention-import-check-ru');

    await page.getByTestId('import-next').click();
    await page.getByTestId('import-result').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('import-result-summary').textContent()).resolves.toMatch(/создано 2, не импортировано 5/);
    const stored = await app.services.orders.list(shop, { limit: 50, offset: 0 });
    expect(stored.rows.map((r) => r.clientNumber).filter((n) => n.startsWith('20')).sort()).toEqual(['2001', '2007']);

    // The errors file, as the shop saves it from the result: the bad rows marked, each with its reason in Russian
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-save-errors').click()]);
    expect(download.suggestedFilename()).toBe('заказы-магазина — ошибки.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet(1)!;
    const errorColumn = titles.length + 1;
    expect(String(ws.getRow(1).getCell(errorColumn).value)).toBe('Ошибки импорта');
    const said = (n: string) => String(ws.getRow(sheetRow(n)).getCell(errorColumn).value ?? '');
    expect(said('2002')).toMatch(/Введите число/);
    expect(said('2003')).toMatch(/телефон/i);
    expect(said('2004')).toMatch(/не доставляет до двери в городе Омск/);
    expect(said('2006')).toMatch(/Заполните поле/);
    for (const n of ['2002', '2003', '2004', '2005', '2006']) {
      expect(said(n).match(english)?.[0]).toBeUndefined();
      expect((ws.getRow(sheetRow(n)).getCell(1).fill as ExcelJS.FillPattern | undefined)?.pattern).toBe('solid');
    }
    for (const n of ['2001', '2007']) expect(said(n)).toBe('');
    expect(session.pageErrors()).toEqual([]);
  });

  it('an order the service cannot be reached for waits in the outbox, whose popover says the last error in Russian', async () => {
    const { app } = session.running;
    const port = await closedPort();
    const created = await app.dispatch('connections.create', shop, { providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: `http://127.0.0.1:${port}`, credentials: { clientId: 'shop-account', clientSecret: 'shop-secret' } });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await create(cdekOrder('3001'));
    await app.outbox.drain();
    await page.getByTestId('nav-orders').click();
    const outbox = page.locator('[data-testid="outbox-indicator"][data-state="waiting"]');
    await outbox.waitFor({ timeout: 15_000 });
    await expect(outbox.textContent()).resolves.toMatch(/^Ждём связи · 1$/);
    await outbox.click();
    await settled(page, '[data-testid="outbox-details"]');
    const details = page.getByTestId('outbox-details');
    const text = await details.innerText();
    expect(text).toMatch(/СДЭК: нет связи \(POST \/oauth\/token\): соединение отклонено/);
    expect(text.match(english)?.[0]).toBeUndefined();
    await screenshot(page, 'attention-outbox-last-error-ru');
    await page.keyboard.press('Escape');
  });

  it('bulk cancel of a mix counts only what was canceled and names the refused ones with their reasons in Russian', async () => {
    const { app } = session.running;
    await create(orderPayload('4001'));
    await create(orderPayload('4002'));
    await create(await sandboxPayload(app.db, 'sandbox-post', '4003'));
    await app.outbox.drain();
    // 4002 is handed over to the service by now; the express service takes no cancels once it has the parcel
    clock.advance(6 * hour);
    await create(orderPayload('4004'));
    await app.outbox.drain();
    await app.services.statusRefresh.refresh({ companyId: shop.companyId });

    const result = await bulkCancel(page, ['4002', '4003', '4004']);
    await screenshot(page, 'attention-bulk-cancel-ru');
    await expect(result.getByTestId('bulk-result-ok').textContent()).resolves.toBe('Выполнено: 1');
    const refused = await result.getByTestId('bulk-result-failure').allInnerTexts();
    expect(refused).toHaveLength(2);
    // each named with the status it is in, which is the reason the service gives no cancel
    expect(refused).toEqual([
      expect.stringMatching(/^Заказ 4002 \(Принят на склад службы доставки\): /),
      'Заказ 4003 (Принят на склад службы доставки): Песочница Почта (тест) не может отменить уже переданный заказ: удалите его (при повторной передаче он получит новый трек-номер)',
    ]);
    for (const r of refused) expect(r.match(english)?.[0]).toBeUndefined();
    const byNumber = new Map((await app.services.orders.list(shop, { limit: 50, offset: 0 })).rows.map((r) => [r.clientNumber, r.statusKey]));
    expect([byNumber.get('4002'), byNumber.get('4003'), byNumber.get('4004')]).toEqual([expect.not.stringMatching(/Canceled/), expect.not.stringMatching(/Canceled/), 'deliveryCanceled']);
  });
});
