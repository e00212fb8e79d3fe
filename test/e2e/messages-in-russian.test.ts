import { createServer } from 'node:net';
import { openBrowserMode, screenshot } from '../helpers/browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** A port nothing listens on: taken from the system, then closed, so a call there is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('browser mode: the core’s messages in Russian, by key', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(async () => {
    await session?.close();
  });

  it('a connection check that cannot reach CDEK says so in Russian, the system’s own error kept as it was', async () => {
    const { page } = session;
    const port = await closedPort();
    const created = await session.running.app.services.connections.create({ providerKey: 'cdek', name: 'Склад', testMode: true, baseUrl: `http://127.0.0.1:${port}` });
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    await page.getByTestId('language-switch').getByText('RU').click();
    await page.getByRole('heading', { name: 'Настройки' }).waitFor();
    const row = page.locator(`[data-testid="connection-row"][data-connection-id="${created.id}"]`);
    await row.getByTestId('connection-test').click();
    const message = row.getByTestId('connection-test-message');
    await message.getByText(/^Проверка не прошла: Служба .+ не ответила \(POST \/oauth\/token\): .*ECONNREFUSED/).waitFor();
    expect(await message.textContent()).not.toMatch(/could not be reached/);
    await screenshot(page, 'messages-ru-connection-unreachable');
  });
});
