import { manualClock } from '../../electron/core/clock';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

const day = 24 * 60 * 60 * 1000;

describe('browser mode: refreshing statuses from the header', () => {
  // The core's time is ours to move: the sandbox services' parcels travel by it.
  const clock = manualClock(Date.now());
  let session: Session;
  const clientNumbers = ['REF-1', 'REF-2', 'REF-3', 'REF-4'];

  beforeAll(async () => {
    session = await openBrowserMode({ appOptions: { clock } });
    const { app } = session.running;
    const shop = { companyId: (await app.desktopContext()).companyId };
    for (const n of clientNumbers) await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload(n)));
    await app.outbox.drain(); // registered with the sandbox service
  });
  afterAll(() => session?.close());

  it('refresh now shows its progress end, notifies of delivered orders and tells when statuses were last refreshed', async () => {
    const { page, running } = session;
    clock.advance(30 * day); // a month later every parcel has reached its end, and none has a new status here yet
    await page.goto(running.uiUrl);

    await expect(page.getByTestId('refresh-last').textContent()).resolves.toMatch(/Not refreshed yet/);
    // A month without a new status: all four are flagged as stuck.
    await page.locator('[data-testid="stuck-orders"][data-count="4"]').waitFor();
    await page.getByTestId('stuck-orders').click();
    // The list loads when it opens: wait for it (a busy machine answers later).
    await expect.poll(() => page.getByTestId('stuck-order').count()).toBe(4);
    await page.keyboard.press('Escape');

    await page.getByTestId('refresh-now').click();
    // The run is over when the control is idle again with what it found.
    await page.locator('[data-testid="refresh-control"][data-state="idle"] [data-testid="refresh-found"]', { hasText: 'Checked 4, changed 4' }).waitFor();
    await expect(page.getByTestId('refresh-last').textContent()).resolves.toMatch(/^Updated \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$|^Updated \d{2}:\d{2}$/);

    // The notification names exactly the orders the service reports delivered.
    const orders = await running.app.db.selectFrom('orders').select(['client_number', 'status_key']).execute();
    const delivered = orders.filter((o) => o.status_key === 'delivered').map((o) => o.client_number).sort();
    expect(delivered.length).toBeGreaterThan(0);
    const toast = page.getByTestId('toast').filter({ hasText: `Delivered: ${delivered.length}` });
    await toast.waitFor();
    const listed = (await toast.textContent())!;
    for (const n of clientNumbers) expect(listed.includes(n)).toBe(delivered.includes(n));

    // Finished orders are no longer stuck.
    await page.getByTestId('stuck-orders').waitFor({ state: 'detached' });
    await page.locator('[data-testid="order-row"] [data-status="delivered"]').first().waitFor();
    await page.mouse.move(600, 600); // no hover tooltip over the picture
    await screenshot(page, 'status-refresh');
    expect(session.pageErrors()).toEqual([]);
  });

  it('speaks Russian in the header too', async () => {
    const { page } = session;
    await page.getByTestId('language-switch').getByText('RU').click();
    await expect(page.getByTestId('refresh-now').textContent()).resolves.toMatch(/Обновить статусы/);
    await expect(page.getByTestId('refresh-found').textContent()).resolves.toMatch(/Проверено: 4, изменилось: 4/);
    await expect(page.getByTestId('refresh-last').textContent()).resolves.toMatch(/^Обновлено /);
    await page.mouse.move(600, 600);
    await screenshot(page, 'status-refresh-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
  });
});
