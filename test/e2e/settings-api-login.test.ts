import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: Settings → Local API, the login for existing integrations', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(async () => {
    await session?.close();
  });

  /** POST /login as the aggregator's SDK sends it (its default adapter). */
  const signIn = (login: string, password: string) =>
    fetch(`${session.running.base}/v1/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ login, password }) }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as { accessToken?: string; code?: string },
    }));
  const shopToken = async () => (await session.running.app.services.settings.get(await session.running.app.desktopContext())).apiToken;

  it('a short login or password is marked and nothing is saved; a good pair lets the site\'s SDK sign in; removed, it no longer does', async () => {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-api').click();
    await page.getByTestId('api-login-state').getByText(/^Not set\./).waitFor();

    await page.getByTestId('api-login-name').fill('ab');
    await page.getByTestId('api-login-password').fill('short');
    await page.getByTestId('api-login-save').click();
    const form = page.getByTestId('api-login');
    await form.getByText('At least 3 characters', { exact: true }).waitFor();
    await form.getByText('At least 10 characters', { exact: true }).waitFor();
    await page.getByTestId('api-login-name').fill('shop site');
    await page.getByTestId('api-login-save').click();
    await form.getByText('Letters, digits and . _ @ - only').waitFor();
    expect((await signIn('ab', 'short')).status).toBe(401);

    await page.getByTestId('api-login-name').fill('shop-site');
    await page.getByTestId('api-login-password').fill('correct horse battery');
    await page.getByTestId('api-login-save').click();
    await page.getByText('API login saved').waitFor();
    await page.getByTestId('api-login-state').getByText('Set: shop-site.', { exact: false }).waitFor();
    await expect(page.getByTestId('api-login-password').inputValue()).resolves.toBe('');
    expect(await signIn('shop-site', 'correct horse battery')).toEqual({ status: 200, json: { accessToken: await shopToken() } });
    expect((await signIn('shop-site', 'wrong horse battery')).status).toBe(401);

    // The same section in Russian.
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByTestId('api-login').getByText('Логин для готовых интеграций').waitFor();
    await page.getByTestId('api-login-state').getByText(/^Задан: shop-site\./).waitFor();
    await page.getByText('Пароль API', { exact: true }).waitFor();
    await page.getByTestId('api-local-webhooks').waitFor();
    await screenshot(page, 'settings-api-login-ru');

    await page.getByTestId('api-login-clear').click();
    await page.getByText('Логин API удалён; токен продолжает работать').waitFor();
    await page.getByTestId('api-login-state').getByText(/^Не задан\./).waitFor();
    expect((await signIn('shop-site', 'correct horse battery')).status).toBe(401);
    await page.getByTestId('language-switch').getByText('EN').click();
    expect(session.pageErrors()).toEqual([]);
  });

  it('webhooks: with local sites allowed, a site registered through the API is listed with how its last call went', async () => {
    const { page } = session;
    const app = session.running.app;
    const shop = await app.desktopContext();
    // The shop's site on this computer, answering 500 to everything.
    const calls: string[] = [];
    const site = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls.push(req.url ?? '');
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/status`;
      const register = () =>
        fetch(`${session.running.base}/v1/webhooks`, { method: 'POST', headers: { Authorization: 'e2e-token-12345', 'Content-Type': 'application/json' }, body: JSON.stringify({ url, type: 'ORDER_STATUS' }) });
      await page.getByTestId('api-webhooks-empty').waitFor();
      expect((await register()).status).toBe(400); // this computer, not allowed yet

      await page.getByTestId('api-local-webhooks').check();
      await expect.poll(async () => (await app.services.settings.get(shop)).preferences.allowLocalWebhooks).toBe(true);
      expect((await register()).status).toBe(200);
      const clientCompany = (await app.services.companies.byToken('e2e-token-12345'))!;
      await app.services.orders.create(clientCompany, orderCreateSchema.parse(orderPayload('WH-UI-1')));
      await expect.poll(async () => (await app.webhookDelivery.drain(), calls.length)).toBeGreaterThan(0);

      await page.getByTestId('api-webhooks-refresh').click();
      const row = page.getByTestId('api-webhook-row');
      await row.getByText(url).waitFor();
      await row.getByTestId('api-webhook-last').getByText('The site answered HTTP 500; will try again').waitFor();
      await screenshot(page, 'settings-api-webhooks');
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});

