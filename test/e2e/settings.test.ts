import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { orderCreateSchema } from '../../shared/schemas/order';
import type { Settings } from '../../shared/schemas/settings';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;


describe('browser mode: the settings page', () => {
  let session: Session;
  let fake: FakeCdek;
  let shop: { companyId: number };
  /** The shop's API token, shown in the settings; regenerating it there changes it. */
  let firstToken: string;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeCdek();
    session = await openBrowserMode();
    shop = { companyId: (await session.running.app.desktopContext()).companyId };
    firstToken = token = (await stored()).apiToken;
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  const stored = (): Promise<Settings> => session.running.app.services.settings.get(shop);

  /** Closes the notes in the corner so a screenshot shows the page itself. */
  async function closeToasts(page: Page) {
    const toasts = page.getByTestId('toast');
    // A toast may leave by itself while we reach for it: then the next one is taken.
    for (let i = 0; i < 10 && (await toasts.count()) > 0; i++) await toasts.first().locator('button').click({ timeout: 2000 }).catch(() => {});
  }

  async function openSection(page: Page, key: string) {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId(`settings-tab-${key}`).click();
  }

  it('company details: a bad INN is marked and nothing is saved; fixed, they are saved', async () => {
    const { page } = session;
    await openSection(page, 'company');
    await page.getByTestId('company-name').fill('ООО «Ромашка»');
    await page.getByTestId('company-inn').fill('12345');
    await page.getByTestId('company-email').fill('shop@example');
    await page.getByTestId('company-save').click();
    const section = page.getByTestId('company-section');
    await section.getByText('10 digits (company) or 12 digits (sole trader)').waitFor();
    await section.getByText('Enter an e-mail address').waitFor();
    await expect(page.getByTestId('company-status').textContent()).resolves.toBe('Correct the marked fields; nothing was saved.');
    const untouched = (await stored()).company;
    expect([untouched.name, untouched.inn, untouched.email]).toEqual(['Мой магазин', undefined, undefined]);

    await page.getByTestId('company-inn').fill('7707083893');
    await page.getByTestId('company-kpp').fill('773601001');
    await page.getByTestId('company-ogrn').fill('1027700132195');
    await page.getByTestId('company-email').fill('shop@example.ru');
    await page.getByTestId('company-save').click();
    await page.getByTestId('company-status').getByText('Saved').waitFor();
    await closeToasts(page);
    await screenshot(page, 'settings-company');
    expect((await stored()).company).toMatchObject({ name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', email: 'shop@example.ru' });
  });

  it('a sender profile: a missing phone is marked; the first profile added becomes the default', async () => {
    const { page } = session;
    await openSection(page, 'senders');
    await page.getByTestId('senders-empty').waitFor();
    await page.getByTestId('sender-add').click();
    const dialog = page.getByTestId('sender-dialog');
    // Pre-filled from the company details.
    await expect(dialog.getByTestId('sender-companyName').inputValue()).resolves.toBe('ООО «Ромашка»');
    await dialog.getByTestId('sender-profileName').fill('Склад на Ленина');
    await dialog.getByTestId('sender-contactName').fill('Иван Петров');
    await dialog.getByTestId('sender-city').fill('Москва');
    await dialog.getByTestId('sender-addressString').fill('ул. Ленина, 1');
    await dialog.getByTestId('sender-save').click();
    await dialog.getByText('Fill in this field').waitFor();
    expect((await stored()).senderProfiles).toEqual([]);

    await dialog.getByTestId('sender-phone').fill('+7 900 123-45-67');
    await dialog.getByTestId('sender-phone').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('sender-row').filter({ hasText: 'Склад на Ленина' });
    await row.getByTestId('sender-default').waitFor();
    const [profile] = (await stored()).senderProfiles;
    expect(profile).toMatchObject({ name: 'Склад на Ленина', isDefault: true, sender: { contactName: 'Иван Петров', phone: '+7 900 123-45-67', city: 'Москва', countryCode: 'RU' } });
  });

  it('delivery services: CDEK in test mode (the public test account) checks out; wrong credentials fail clearly; secrets never come back', async () => {
    const { page } = session;
    await openSection(page, 'connections');
    await expect(page.getByTestId('secret-storage-note').getAttribute('data-kind')).resolves.toBe('key-file');
    await page.getByTestId('secret-storage-note').getByText(/Browser mode cannot use the system keychain/).waitFor();

    // Outside test mode credentials are required: marked, nothing created.
    await page.getByTestId('connection-add').click();
    let dialog = page.getByTestId('connection-dialog');
    // One form for every kind, drawn from the kinds table: the aggregator asks for its address and token and has no test mode.
    await dialog.getByTestId('connection-service').getByText(/^(Upstream aggregator|Агрегатор)$/).click();
    await dialog.getByTestId('connection-field-token').waitFor();
    await expect(dialog.getByTestId('connection-testMode').count()).resolves.toBe(0);
    await expect(dialog.getByTestId('connection-field-parallelCalls').count()).resolves.toBe(1);
    await dialog.getByTestId('connection-name').fill('Агрегатор');
    await dialog.getByTestId('connection-save').click();
    await expect.poll(() => dialog.getByText(/^(Fill in this field|Заполните( это)? поле)$/).count()).toBe(2); // the token and the address
    expect(await session.running.app.services.connections.list()).toEqual([]);
    await dialog.getByTestId('connection-service').getByText(/^(CDEK|СДЭК)$/).click();
    await dialog.getByTestId('connection-field-clientId').waitFor();
    await dialog.getByTestId('connection-name').fill('Тестовый СДЭК');
    await dialog.getByTestId('connection-baseUrl').fill(fake.url);
    await dialog.getByTestId('connection-save').click();
    await dialog.getByText('Enter the account and password, or turn on test mode').waitFor();
    expect(await session.running.app.services.connections.list()).toEqual([]);
    await dialog.getByTestId('connection-testMode').check();
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });

    const good = page.getByTestId('connection-row').filter({ hasText: 'Тестовый СДЭК' });
    await good.getByText('public test account').waitFor();
    await good.getByTestId('connection-test').click();
    const goodResult = good.getByTestId('connection-test-result');
    await goodResult.waitFor();
    await expect(goodResult.getAttribute('data-ok')).resolves.toBe('true');
    await expect(good.getByTestId('connection-test-message').textContent()).resolves.toBe('Connected to CDEK (test mode)');
    await good.getByText(/^checked /).waitFor();

    await page.getByTestId('connection-add').click();
    dialog = page.getByTestId('connection-dialog');
    await dialog.getByTestId('connection-name').fill('Чужой договор');
    await dialog.getByTestId('connection-field-clientId').fill('wrong-account-0001');
    await dialog.getByTestId('connection-field-clientSecret').fill('wrong-secret-9999');
    await dialog.getByTestId('connection-baseUrl').fill(fake.url);
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    const bad = page.getByTestId('connection-row').filter({ hasText: 'Чужой договор' });
    await bad.getByText('…0001').waitFor();
    await bad.getByTestId('connection-test').click();
    const badResult = bad.getByTestId('connection-test-result');
    await badResult.waitFor();
    await expect(badResult.getAttribute('data-ok')).resolves.toBe('false');
    const message = await bad.getByTestId('connection-test-message').textContent();
    expect(message).toMatch(/\S/);
    expect(message).not.toBe('Connected to CDEK');
    await bad.getByText('Failed', { exact: true }).waitFor();

    // The secret is sealed in the core and never sent to the window.
    expect(await page.content()).not.toContain('wrong-secret-9999');
    const row = await session.running.app.db.selectFrom('provider_connections').selectAll().where('name', '=', 'Чужой договор').executeTakeFirstOrThrow();
    expect(row.credentials).not.toContain('wrong-secret-9999');
    await closeToasts(page);
    await screenshot(page, 'settings');
  });

  it('preferences: an interval below 5 minutes is refused; a good one is kept across a reload', async () => {
    const { page } = session;
    await openSection(page, 'preferences');
    await page.getByTestId('prefs-refresh').fill('3');
    await page.getByTestId('prefs-save').click();
    await page.getByTestId('preferences-section').getByText('At least 5').waitFor();
    expect((await stored()).preferences.refreshIntervalMinutes).toBe(30);

    await page.getByTestId('prefs-refresh').fill('45');
    await page.getByTestId('prefs-stuck').fill('7');
    await page.getByTestId('prefs-save').click();
    await page.getByTestId('prefs-status').getByText('Saved').waitFor();
    await page.reload();
    await openSection(page, 'preferences');
    await expect(page.getByTestId('prefs-refresh').inputValue()).resolves.toBe('45');
    await expect(page.getByTestId('prefs-stuck').inputValue()).resolves.toBe('7');
    expect((await stored()).preferences).toMatchObject({ refreshIntervalMinutes: 45, stuckThresholdDays: 7 });
  });

  it('local API: the address is this server’s /v1; a regenerated token locks the old one out at once while the window keeps working', async () => {
    const { page } = session;
    const { base } = session.running;
    await openSection(page, 'api');
    await expect(page.getByTestId('api-url').inputValue()).resolves.toBe(`${base}/v1`);
    await page.getByTestId('api-token-show').click();
    await expect(page.getByTestId('api-token').inputValue()).resolves.toBe(firstToken);

    await page.getByTestId('api-regenerate').click();
    await page.getByTestId('api-regenerate-dialog-confirm').click();
    await page.getByText('New token issued; the old one no longer works').waitFor();
    token = (await stored()).apiToken;
    expect(token).not.toBe(firstToken);
    await expect(page.getByTestId('api-token').inputValue()).resolves.toBe(token);

    const orders = (auth: string) => fetch(`${base}/v1/lists/providers`, { headers: { Authorization: auth } }).then((r) => r.status);
    expect(await orders(firstToken)).toBe(401);
    expect(await orders(token)).toBe(200);

    // The window has a session of its own, not that token: it goes on working, and after a reload too.
    await session.running.app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('SET-1')));
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').filter({ hasText: 'SET-1' }).waitFor();
    await expect(page.getByTestId('connection-state').getAttribute('data-state')).resolves.toBe('connected');
    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'SET-1' }).waitFor();
    await openSection(page, 'api');
    await page.getByTestId('api-token-show').click();
    await expect(page.getByTestId('api-token').inputValue()).resolves.toBe(token);
    await expect(page.getByTestId('sign-in-page').count()).resolves.toBe(0);
    await closeToasts(page);
    await screenshot(page, 'settings-api');

    // Turned off, other programs are refused; the window still works.
    await page.getByTestId('api-enabled').uncheck();
    await page.getByText('The local API is off').waitFor();
    expect(await orders(token)).toBe(403);
    await page.getByTestId('api-enabled').check();
    await page.getByText('The local API is on').waitFor();
    expect(await orders(token)).toBe(200);
  });

  it('backups: back up now lists the copy; a restore is staged after asking, says a restart is needed, and can be canceled', async () => {
    const { page, dataDir } = session;
    await openSection(page, 'data');
    await expect(page.getByTestId('data-folder').inputValue()).resolves.toBe(dataDir);
    await page.getByTestId('backups-empty').waitFor();
    await page.getByTestId('backup-now').click();
    await page.getByTestId('backup-row').first().waitFor();
    const [backup] = await session.running.app.services.backup.list();
    await page.getByTestId('backup-row').filter({ hasText: backup.name }).waitFor();

    await page.getByTestId('backup-restore').first().click();
    await page.getByTestId('restore-dialog-confirm').click();
    await page.getByTestId('restore-pending').waitFor();
    await page.getByTestId('restore-pending').getByText(/Restart ShipDesk to finish the restore/).waitFor();
    expect((await stored()).pendingRestore).not.toBeNull();
    await closeToasts(page);
    await screenshot(page, 'settings-backups');
    await page.getByTestId('restore-cancel').click();
    await page.getByTestId('restore-pending').waitFor({ state: 'detached' });
    expect((await stored()).pendingRestore).toBeNull();
  });

  it('backups: a database file from elsewhere (a USB stick, another PC) is sent in parts with progress, checked, and offered for restore; a wrong file is refused', async () => {
    const { page, dataDir } = session;
    await openSection(page, 'data');
    const copy = await session.running.app.services.backup.now();
    const raw = new Database(copy.path);
    raw.exec('CREATE TABLE ballast (b BLOB); INSERT INTO ballast VALUES (randomblob(9000000))'); // three parts of 4 MiB
    raw.close();
    const stick = join(dataDir, 'с-флешки.db');
    copyFileSync(copy.path, stick);

    await page.getByTestId('backup-file-input').setInputFiles(stick);
    await page.getByTestId('restore-dialog-confirm').waitFor();
    const uploaded = (await session.running.app.services.backup.list()).find((b) => b.kind === 'uploaded')!;
    expect(readFileSync(uploaded.path).equals(readFileSync(stick))).toBe(true);
    await page.getByRole('dialog').getByText(uploaded.name).waitFor();
    await page.getByTestId('backup-row').filter({ hasText: uploaded.name }).getByText('from a file').waitFor();
    await page.getByTestId('restore-dialog-confirm').click();
    await page.getByTestId('restore-pending').waitFor();
    await page.getByTestId('restore-cancel').click();
    await page.getByTestId('restore-pending').waitFor({ state: 'detached' });

    const junk = join(dataDir, 'orders.db');
    writeFileSync(junk, 'Номер;Получатель\n1001;Иванов\n'.repeat(10));
    await page.getByTestId('backup-file-input').setInputFiles(junk);
    await page.getByTestId('toast').filter({ hasText: 'orders.db cannot be restored: it is not a SQLite database' }).waitFor();
    expect((await session.running.app.services.backup.list()).filter((b) => b.kind === 'uploaded')).toHaveLength(1);
    await screenshot(page, 'settings-backup-from-file');
  });

  it('language: the header switch and the setting are one; the page in Russian', async () => {
    const { page } = session;
    await openSection(page, 'connections');
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByRole('heading', { name: 'Настройки' }).waitFor();
    await page.getByTestId('connection-row').first().getByTestId('connection-test').click();
    // The badge and the service's answer, both in Russian.
    await page.getByTestId('connection-row').first().getByText('Подключено', { exact: true }).waitFor();
    await page.getByTestId('connection-row').first().getByText(/Подключено к СДЭК/).waitFor();
    await expect.poll(async () => (await stored()).preferences.language).toBe('ru');
    await closeToasts(page);
    await screenshot(page, 'settings-ru');

    await page.getByTestId('settings-tab-preferences').click();
    await page.getByTestId('prefs-language').click();
    await page.getByRole('option', { name: 'English', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await expect.poll(async () => (await stored()).preferences.language).toBe('en');
    await expect(page.getByTestId('language-switch').locator('input:checked').inputValue()).resolves.toBe('en');
  });

  it('editing a connection: new credentials replace the stored ones and the check passes; deleting asks first', async () => {
    const { page } = session;
    await openSection(page, 'connections');
    const row = page.getByTestId('connection-row').filter({ hasText: 'Чужой договор' });
    await row.getByTestId('connection-edit').click();
    const dialog = page.getByTestId('connection-dialog');
    // The stored secret is not shown back, only its hint.
    await expect(dialog.getByTestId('connection-field-clientSecret').inputValue()).resolves.toBe('');
    await dialog.getByTestId('connection-keep-secret').getByText('…0001', { exact: false }).waitFor();
    await dialog.getByTestId('connection-field-clientId').fill(FAKE_TEST_ACCOUNT.clientId);
    await dialog.getByTestId('connection-save').click();
    await dialog.getByText('Fill in this field').waitFor(); // the other half of the credentials
    await dialog.getByTestId('connection-field-clientSecret').fill(FAKE_TEST_ACCOUNT.clientSecret);
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText(`…${FAKE_TEST_ACCOUNT.clientId.slice(-4)}`).waitFor();
    await row.getByTestId('connection-test').click();
    await row.getByTestId('connection-test-message').getByText('Connected to CDEK').waitFor();

    // A number set, then emptied: back to its default; "Save and test" answers inside the dialog, secrets still not shown.
    const byName = async () => (await session.running.app.services.connections.list()).find((c) => c.name === 'Чужой договор')!;
    await row.getByTestId('connection-edit').click();
    await dialog.getByTestId('connection-field-parallelCalls').fill('4');
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect((await byName()).settings).toEqual({ parallelCalls: 4 });
    await row.getByTestId('connection-edit').click();
    await expect(dialog.getByTestId('connection-field-parallelCalls').inputValue()).resolves.toBe('4');
    await dialog.getByTestId('connection-field-parallelCalls').fill('');
    await dialog.getByTestId('connection-save-test').click();
    await dialog.getByTestId('connection-dialog-test').getByText('Connected to CDEK').waitFor();
    expect((await byName()).settings).toEqual({});
    await expect(dialog.getByTestId('connection-field-clientSecret').inputValue()).resolves.toBe('');
    await expect(dialog.getByTestId('connection-field-parallelCalls').inputValue()).resolves.toBe('');
    await screenshot(page, 'connection-dialog-tested');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row.getByTestId('connection-delete').click();
    await page.getByTestId('connection-delete-dialog').getByRole('button', { name: 'Keep it' }).click();
    expect((await session.running.app.services.connections.list()).map((c) => c.name)).toContain('Чужой договор');
    await row.getByTestId('connection-delete').click();
    await page.getByTestId('connection-delete-dialog-confirm').click();
    await row.waitFor({ state: 'detached' });
    expect((await session.running.app.services.connections.list()).map((c) => c.name)).toEqual(['Тестовый СДЭК']);
  });

  it('sender profiles: another one made the default; deleting the default asks first and the remaining one takes over', async () => {
    const { page } = session;
    await openSection(page, 'senders');
    await page.getByTestId('sender-add').click();
    const dialog = page.getByTestId('sender-dialog');
    await dialog.getByTestId('sender-profileName').fill('Пункт в Казани');
    await dialog.getByTestId('sender-contactName').fill('Анна');
    await dialog.getByTestId('sender-phone').fill('+7 843 000-00-00');
    await dialog.getByTestId('sender-city').fill('Казань');
    await dialog.getByTestId('sender-save').click();
    await dialog.waitFor({ state: 'detached' });
    const kazan = page.getByTestId('sender-row').filter({ hasText: 'Пункт в Казани' });
    await kazan.getByTestId('sender-make-default').click();
    await kazan.getByTestId('sender-default').waitFor();
    await expect(page.getByTestId('sender-default').count()).resolves.toBe(1);

    await kazan.getByTestId('sender-delete').click();
    await page.getByTestId('sender-delete-dialog-confirm').click();
    await kazan.waitFor({ state: 'detached' });
    await page.getByTestId('sender-row').filter({ hasText: 'Склад на Ленина' }).getByTestId('sender-default').waitFor();
    expect((await stored()).senderProfiles.map((p) => [p.name, p.isDefault])).toEqual([['Склад на Ленина', true]]);
  });

  it('looks right in the dark theme too', async () => {
    const context = await session.browser.newContext({ colorScheme: 'dark', locale: 'en-US', viewport: { width: 1366, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(session.running.uiUrl);
      await openSection(page, 'connections');
      await page.getByTestId('connection-row').first().getByTestId('connection-test').click();
      await page.getByTestId('connection-row').first().getByTestId('connection-test-result').waitFor();
      await expect(page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).resolves.toBe('dark');
      await screenshot(page, 'settings-dark');
      await page.getByTestId('connection-add').click();
      await page.getByTestId('connection-dialog').getByTestId('connection-save').click();
      await page.getByTestId('connection-dialog').getByText('Fill in this field').waitFor();
      await screenshot(page, 'settings-dark-dialog');
      await page.keyboard.press('Escape');
      await page.getByTestId('connection-dialog').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
