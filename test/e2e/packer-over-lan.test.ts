import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { launchChromium, openBrowserMode, screenshot } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';
import { freePort, lanCall, lanTestAddress } from '../helpers/lan';
import { turnOnLan } from './lan-steps';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const packer = { name: 'Анна', password: 'упаковка-2026' };

/**
 * The shop's second PC: the owner adds a packer and turns LAN mode on; the packer signs in over HTTPS from
 * another browser (typing the shop PC's name), works with orders, is kept out of the settings, and is
 * signed out when the owner ends their sessions.
 */
describe('a packer at a second PC, over the shop network', () => {
  let fake: FakeCdek;
  let session: Session;
  let secondPc: Browser;
  let packerContext: BrowserContext;
  let packerPage: Page;
  let port: number;

  beforeAll(async () => {
    fake = await startFakeCdek();
    session = await openBrowserMode({ locale: 'ru-RU', appOptions: { cdek: { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} } } });
    const { app } = session.running;
    const owner = await app.desktopContext();
    for (const [name, input] of [
      ['connections.create', { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }],
      ['senderProfiles.create', { name: 'Склад на Тверской', sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567' } }],
    ] as const) {
      const done = await app.dispatch(name, owner, input);
      if (!done.ok) throw new Error(`${name}: ${JSON.stringify(done.error)}`);
    }
    port = await freePort();
    // The second PC finds the shop PC by its name, as the shop's router would tell it.
    secondPc = await launchChromium([`--host-resolver-rules=MAP shop-pc ${lanTestAddress}`]);
  });
  afterAll(async () => {
    await secondPc?.close();
    await session?.close();
    await fake?.close();
  });

  it('the owner adds a packer in Settings → Users', async () => {
    const { page } = session;
    await page.getByTestId('identity').filter({ hasText: 'Владелец' }).waitFor();
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-users').click();
    const section = page.getByTestId('users-section');
    await section.getByTestId('users-empty').waitFor();
    await section.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.getByTestId('user-name').fill(packer.name);
    await dialog.getByTestId('user-password-input').fill('short');
    await dialog.getByTestId('user-save').click();
    await dialog.getByText('Не короче 8 символов').first().waitFor();
    await dialog.getByTestId('user-password-input').fill(packer.password);
    await dialog.getByTestId('user-save').click();
    await section.getByTestId('user-row').filter({ hasText: packer.name }).waitFor();
    await expect(section.getByTestId('user-sessions').textContent()).resolves.toBe('нет');
  });

  it('the owner turns on access from other computers; the packer signs in at https://shop-pc:<port>/', async () => {
    const { page } = session;
    await page.getByTestId('settings-tab-lan').click();
    const section = page.getByTestId('lan-section');
    await turnOnLan(section, port);
    const address = `https://shop-pc:${port}/`;
    await expect(section.getByTestId('lan-url').inputValue()).resolves.toBe(address);
    // The certificate the second PC is shown is the one whose fingerprint the owner reads out.
    const fingerprint = await section.getByTestId('lan-fingerprint').getAttribute('data-value');
    expect((await lanCall(lanTestAddress, port, '/', { host: `shop-pc:${port}` })).fingerprint256).toBe(fingerprint);

    // A self-signed certificate: the packer accepted it after comparing the fingerprint.
    packerContext = await secondPc.newContext({ locale: 'ru-RU', ignoreHTTPSErrors: true, viewport: { width: 1366, height: 860 } });
    await packerContext.addInitScript(keepBlobs);
    packerPage = await packerContext.newPage();
    const errors: string[] = [];
    packerPage.on('pageerror', (e) => errors.push(String(e)));
    await packerPage.goto(address);
    const signIn = packerPage.getByTestId('sign-in-page');
    await signIn.waitFor();
    await screenshot(packerPage, 'sign-in-ru');

    // Guessing is slowed down: after five wrong passwords for a name, even trying waits.
    await signIn.getByTestId('sign-in-name').fill('Борис');
    for (let attempt = 1; attempt <= 6; attempt++) {
      await signIn.getByTestId('sign-in-password').fill(`угадываю-${attempt}`);
      await signIn.getByTestId('sign-in-submit').click();
      await signIn.getByTestId('sign-in-error').waitFor();
      await signIn.getByTestId('sign-in-submit').and(packerPage.locator(':not([data-loading])')).waitFor();
    }
    await expect(signIn.getByTestId('sign-in-error').textContent()).resolves.toMatch(/^Слишком много неудачных попыток\. Попробуйте снова через 15 минут\.$/);

    await signIn.getByTestId('sign-in-name').fill(packer.name);
    await signIn.getByTestId('sign-in-password').fill('не тот пароль');
    await signIn.getByTestId('sign-in-submit').click();
    await expect(signIn.getByTestId('sign-in-error').textContent()).resolves.toBe('Неверное имя или пароль.');

    await signIn.getByTestId('sign-in-password').fill(packer.password);
    await signIn.getByTestId('sign-in-submit').click();
    const identity = packerPage.getByTestId('identity');
    await identity.waitFor();
    await expect(identity.textContent()).resolves.toBe(`${await shopName()} · Упаковщик: ${packer.name}`);
    await screenshot(packerPage, 'header-packer-ru');
    expect(errors).toEqual([]);
  });

  it('the packer creates a CDEK order and prints its label, which opens as a PDF in a new tab', async () => {
    // The order form's steps read English labels: the packer's own language switch, not the shop's setting.
    await packerPage.getByTestId('language-switch').getByText('EN').click();
    await packerPage.getByTestId('new-order-button').click();
    await fillOrder(packerPage, { number: 'LAN-1001', recipient: 'Анна Смирнова', city: 'Санкт-Петербург' });
    await packerPage.getByTestId('price-row').filter({ hasText: /Посылка дверь-дверь/ }).first().click();
    await packerPage.getByTestId('order-form').getByTestId('submit-order').click();
    await packerPage.getByTestId('order-row').filter({ hasText: 'LAN-1001' }).waitFor({ timeout: 15_000 });
    await session.running.app.outbox.drain();
    expect((await session.running.app.services.lan.settings()).enabled).toBe(true);

    await packerPage.getByTestId('order-row').filter({ hasText: 'LAN-1001' }).click();
    const button = packerPage.getByTestId('order-detail').getByTestId('detail-label');
    await button.waitFor({ timeout: 15_000 });
    // Browser mode hands the PDF to the browser's own viewer in a new tab, where the packer prints it.
    const pdf = await openedPdf(packerPage, () => button.click());
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    await packerPage.getByText('The PDF opened in a new tab').waitFor();
    await packerPage.bringToFront();
    await packerPage.keyboard.press('Escape');
    await packerPage.getByTestId('order-detail').waitFor({ state: 'hidden' });
  });

  it('the packer is kept out of the settings: the page says whose they are, and the commands are refused', async () => {
    await packerPage.getByTestId('nav-settings').click();
    await packerPage.getByTestId('settings-owner-only').waitFor();
    await expect(packerPage.getByTestId('settings-tab-connections').count()).resolves.toBe(0);
    const refused = await packerPage.evaluate(async () => {
      const secret = localStorage.getItem('shipdesk.session');
      const answers: Record<string, number> = {};
      for (const name of ['connections.list', 'settings.get', 'users.list', 'backup.list', 'lan.get', 'settings.regenerateToken']) {
        const res = await fetch(`/app/commands/${name}`, { method: 'POST', headers: { Authorization: `Session ${secret}`, 'Content-Type': 'application/json' }, body: '{}' });
        answers[name] = res.status;
      }
      return answers;
    });
    expect(refused).toEqual({ 'connections.list': 403, 'settings.get': 403, 'users.list': 403, 'backup.list': 403, 'lan.get': 403, 'settings.regenerateToken': 403 });
  });

  it('the owner ends the packer\'s sessions; the packer\'s window asks them to sign in again', async () => {
    const { page } = session;
    await page.getByTestId('settings-tab-users').click();
    const row = page.getByTestId('user-row').filter({ hasText: packer.name });
    // The list is re-read when the tab opens; until then it may still show what it read before the packer signed in.
    await row.getByTestId('user-sessions').filter({ hasText: /^сеансов: 1$/ }).waitFor();
    await screenshot(page, 'settings-users-ru');
    const secret = await packerPage.evaluate(() => localStorage.getItem('shipdesk.session'));
    await row.getByTestId('user-revoke').click();
    await page.getByTestId('user-confirm-confirm').click();
    await row.getByTestId('user-sessions').filter({ hasText: /^нет$/ }).waitFor();

    // The ended session's event stream tells the packer's window at once; no click is needed (and a click
    // could land while the page is being replaced by the sign-in screen).
    await packerPage.getByTestId('sign-in-ended').waitFor({ timeout: 15_000 });
    const status = await packerPage.evaluate(async (secret) => {
      const res = await fetch('/app/commands/orders.list', { method: 'POST', headers: { Authorization: `Session ${secret}`, 'Content-Type': 'application/json' }, body: '{}' });
      return res.status;
    }, secret);
    expect(status).toBe(401);
  });

  async function shopName(): Promise<string> {
    const { app } = session.running;
    return (await app.services.settings.get(await app.desktopContext())).company.name;
  }
});
