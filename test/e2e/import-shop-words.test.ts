import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowserMode, screenshot } from '../helpers/browser';

// A web shop's export as a shop owner has it: InSales-style titles, delivery written in words, no tariff
// column, no sender columns (the sender profile is set up), no sizes. Two of the six orders go where the
// service will not take them (Омск and Тула are not served to the door), one is too heavy for the tariff.
const rows: (string | number | null)[][] = [
  ['1001', 'Анна Семёнова', '+7 (916) 123-45-67', 'г. Москва, ул. Тверская, д. 7, кв. 12', 'До двери', 'Футболка', 2, 995, 2990, 600],
  ['1001', null, null, null, null, 'Кружка', 1, 1000, null, 450],
  ['1002', 'Олег Иванов', '89161234567', 'г. Казань, ул. Баумана, д. 1', 'курьер', 'Книга', 1, 650, 650, 500],
  ['1003', 'Мария Петрова', '+79031112233', 'г. Омск, ул. Ленина, д. 5', 'До двери', 'Платье', 1, 3200, 3200, 400],
  ['1004', 'Илья Смирнов', '+79035556677', 'г. Тула, пр. Ленина, д. 20', 'доставка курьером', 'Кеды', 1, 4100, 4100, 900],
  ['1005', 'Ольга Кузнецова', '+79264445566', 'г. Санкт-Петербург, Невский пр., д. 28', 'до двери', 'Гантели', 10, 500, 5000, 5100],
  ['1006', 'Павел Орлов', '+79167778899', 'г. Екатеринбург, ул. Малышева, д. 3', 'Курьер', 'Рюкзак', 1, 2500, 0, 700],
];
const titles = ['Номер заказа', 'Контактное лицо', 'Телефон покупателя', 'Полный адрес доставки', 'Доставка', 'Название товара', 'Количество', 'Цена продажи', 'Сумма к оплате', 'Вес товара', 'Дата создания'];

async function shopExport(path: string) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Заказы');
  ws.addRow(titles);
  // InSales writes when the order was placed: a real date cell, which the preview shows in the app's language
  rows.forEach((r, i) => ws.addRow([...r, new Date(Date.UTC(2026, 10, 24, 9, i))]));
  ws.addRow([]);
  await wb.xlsx.writeFile(path);
}

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('importing a web shop\'s export in Russian, in shop words', () => {
  it('maps the InSales export by its titles, asks only for the tariff, and reaches "ready" only for the orders the service will take', async () => {
    const session = await openBrowserMode({ locale: 'ru-RU' });
    const dir = mkdtempSync(join(tmpdir(), 'shipdesk-import-words-'));
    try {
      const { page, running } = session;
      const { app } = running;
      const shop = await app.desktopContext();
      const profile = await app.dispatch('senderProfiles.create', shop, {
        name: 'Склад на Тверской',
        sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва', region: 'Москва', street: 'ул. Тверская', house: '7' },
      });
      if (!profile.ok) throw new Error(JSON.stringify(profile.error));
      const file = join(dir, 'insales-orders.xlsx');
      await shopExport(file);

      await page.getByTestId('nav-import').click();
      await page.getByTestId('import-template').waitFor(); // our own template is offered from the start
      await page.getByTestId('import-file-input').setInputFiles(file);
      await page.getByTestId('import-preview-grid').waitFor();
      const firstOrder = (await page.getByTestId('import-preview-grid').locator('tbody tr').nth(1).textContent()) ?? '';
      expect(firstOrder).toContain('24.11.2026 09:00');
      expect(firstOrder).not.toContain('2026-11-24');
      await choose(page, 'import-provider', /Экспресс/);
      await screenshot(page, 'import-words-preview-ru');
      await page.getByTestId('import-next').click();

      // Columns: recognised as InSales, only the tariff is left to choose, and it is chosen by name
      await page.getByTestId('import-mapping').waitFor();
      await expect(page.getByTestId('import-platform-detected').textContent()).resolves.toBe('Похоже на выгрузку из InSales: столбцы сопоставлены по заголовкам.');
      await expect(page.getByTestId('import-guessed').textContent()).resolves.toBe('Распознано 10 из 11 столбцов с заголовками'); // the date is not a field
      await expect(page.getByTestId('import-sender-note').textContent()).resolves.toContain('Склад на Тверской');
      await expect(page.getByTestId('import-missing').textContent()).resolves.toBe('Обязательные и не заданы: Заказ › Тариф');
      await expect(page.getByTestId('map-filled-order.deliveryType').count()).resolves.toBe(0); // mapped: the «Доставка» column
      await choose(page, 'map-default-order.tariffId', 'Экспресс дверь-дверь');
      await expect(page.getByTestId('import-missing').count()).resolves.toBe(0);
      // Defaults are words, not formulas
      await page.getByTestId('map-default-order.deliveryType').click();
      await expect(page.getByRole('option').allTextContents()).resolves.toEqual(['До двери', 'В пункт выдачи']);
      await page.keyboard.press('Escape');
      const mappingText = (await page.getByTestId('import-mapping').textContent()) ?? '';
      expect(mappingText).not.toMatch(/sumByOrderRows|extraParams|PHP/);
      await screenshot(page, 'import-words-mapping-ru');

      // The check: four ready; Омск and Тула not served to the door, the dumbbells over the tariff's weight
      await page.getByTestId('import-next').click();
      await page.getByTestId('import-dry-summary').waitFor({ timeout: 60_000 });
      await expect(page.getByTestId('import-dry-summary').textContent()).resolves.toMatch(/Заказов в файле: 6\. Готовы: 3\. С ошибками: 3\./);
      const errors = await page.getByTestId('import-dry-errors').getByTestId('import-result-row').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      expect(errors).toEqual([
        expect.stringMatching(/^51003.*не доставляет до двери в городе Омск/),
        expect.stringMatching(/^61004.*не доставляет до двери в городе Тула/),
        expect.stringMatching(/^71005.*больше предела тарифа/),
      ]);
      expect(errors.join(' ')).not.toMatch(/sandbox-express|does not|must be|from /);
      await screenshot(page, 'import-words-check-ru');

      // The import creates exactly the orders the check called ready
      await page.getByTestId('import-next').click();
      await page.getByTestId('import-result').waitFor({ timeout: 60_000 });
      await expect(page.getByTestId('import-result-summary').textContent()).resolves.toMatch(/создано 3, не импортировано 3/);
      const stored = await app.services.orders.list({ companyId: shop.companyId }, { limit: 50, offset: 0 });
      expect(stored.rows.map((r) => r.clientNumber).sort()).toEqual(['1001', '1002', '1006']);
      await screenshot(page, 'import-words-result-ru');
      expect(session.pageErrors()).toEqual([]);
    } finally {
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
