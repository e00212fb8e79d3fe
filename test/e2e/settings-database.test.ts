import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_CHOICE_FILE } from '../../electron/core/settings/database-choice';
import { createTestDatabase, testPostgresUrl } from '../../electron/core/store/test-engines';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: Settings → Database', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
  });
  afterAll(async () => {
    await session?.close();
  });

  async function openSection() {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-database').click();
    const section = page.getByTestId('database-section');
    await section.getByTestId('database-in-use').waitFor();
    return section;
  }

  it('shows the SQLite file in use; a wrong address and a server that is not there are said in Russian, and nothing can be saved', async () => {
    const section = await openSection();
    await expect(section.getByTestId('database-in-use').textContent()).resolves.toBe(`Сейчас используется: Файл SQLite ${join(session.dataDir, 'shipdesk.db')}`);
    await section.getByTestId('database-url').fill('mysql://root@localhost/shop');
    await section.getByTestId('database-check').click();
    await section.getByText('Введите адрес вида postgres://').waitFor();

    // a pasted address with its password: the password moves to a password field and is shown nowhere
    const port = await closedPort();
    await section.getByTestId('database-url').fill(`postgres://shop:Тайна-42@127.0.0.1:${port}/shipdesk`);
    await expect(section.getByTestId('database-url').inputValue()).resolves.toBe(`postgres://shop@127.0.0.1:${port}/shipdesk`);
    const password = section.getByTestId('database-password');
    await expect(password.getAttribute('type')).resolves.toBe('password');
    await expect(password.inputValue()).resolves.toBe('Тайна-42');
    await expect(session.page.locator('body').innerText()).resolves.not.toContain('Тайна-42');
    await section.getByTestId('database-check').click();
    const result = section.getByTestId('database-check-result');
    await result.getByText('По этому адресу не отвечает сервер PostgreSQL').waitFor();
    expect(await result.getAttribute('data-usable')).toBe('false');
    await expect(section.getByTestId('database-save').isDisabled()).resolves.toBe(true);
    await screenshot(session.page, 'settings-database-unreachable-ru');
    expect(session.pageErrors()).toEqual([]);
  });

  it.skipIf(!testPostgresUrl)('the owner checks an empty PostgreSQL database and chooses it; the page says it takes effect on restart (skipped: SHIPDESK_TEST_POSTGRES is not set)', async () => {
    const database = await createTestDatabase(testPostgresUrl!);
    try {
      const section = await openSection();
      // the address and its password typed apart, as the fields ask
      const typed = new URL(database.url);
      const secret = decodeURIComponent(typed.password);
      typed.password = '';
      await section.getByTestId('database-url').fill(typed.toString());
      if (secret) await section.getByTestId('database-password').fill(secret);
      await section.getByTestId('database-check').click();
      await section.getByTestId('database-check-result').getByText(/^Подключено к PostgreSQL \d+.*База пуста/).waitFor();
      await screenshot(session.page, 'settings-database-checked-ru');
      await section.getByTestId('database-save').click();
      await section.getByTestId('database-restart').getByText('Изменение вступит в силу после перезапуска ShipDesk').waitFor();
      const name = new URL(database.url).pathname.slice(1);
      await expect(section.getByTestId('database-next').textContent()).resolves.toBe(`При следующем запуске: PostgreSQL, база ${name} на 127.0.0.1:${new URL(database.url).port} (пользователь ${new URL(database.url).username})`);
      await session.page.getByTestId('toast').first().waitFor();
      await screenshot(session.page, 'settings-database-ru');
      expect(JSON.parse(readFileSync(join(session.dataDir, DATABASE_CHOICE_FILE), 'utf8'))).toMatchObject({ engine: 'postgres' });

      await section.getByTestId('database-use-sqlite').click();
      await section.getByTestId('database-restart').waitFor({ state: 'detached' });
      expect(session.pageErrors()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
