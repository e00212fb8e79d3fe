import { openBrowserMode, screenshot } from '../helpers/browser';
import { networkSwitch } from '../helpers/network-switch';
import { settled } from '../helpers/settled';
import { fillOrder } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: an order submitted without a connection to the delivery service', () => {
  const net = networkSwitch();
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode({ appOptions: { wrapProvider: net.wrap } });
  });
  afterAll(() => session?.close());

  it('waits in the queue with "waiting for connection" and goes out by itself once the connection is back', async () => {
    const { page } = session;
    net.unplug();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: 'OFF-1001', recipient: 'Анна Смирнова', city: 'Санкт-Петербург', sender: true });
    // Prices come from the local tariff tables, so the choice works without a connection too.
    await page.getByTestId('price-row').filter({ hasText: /Экспресс дверь-дверь/ }).first().click();
    await page.getByTestId('submit-order').click();

    // Saved at once, in the list, still on its way to the service.
    const row = page.getByTestId('order-row').filter({ hasText: 'OFF-1001' });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.locator('[data-status]').getAttribute('data-status')).resolves.toBe('uploading');

    const outbox = page.locator('[data-testid="outbox-indicator"][data-state="waiting"]');
    await outbox.waitFor({ timeout: 15_000 });
    await expect(outbox.getAttribute('data-pending')).resolves.toBe('1');
    await expect(outbox.textContent()).resolves.toMatch(/Waiting for connection · 1/);
    await outbox.click();
    const details = page.getByTestId('outbox-details');
    await settled(page, '[data-testid="outbox-details"]');
    await expect(details.getByTestId('outbox-queued').textContent()).resolves.toBe('In queue: 1');
    await expect(details.getByTestId('outbox-next-attempt').textContent()).resolves.toMatch(/^Next attempt \d{2}:\d{2}:\d{2}$/);
    await screenshot(page, 'offline-queue');
    expect(net.refused).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    net.plugIn();
    // Nobody presses anything: the next retry registers it and the queue empties.
    await page.getByTestId('order-row').filter({ hasText: /OFF-1001.*SBE\d{9}/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('outbox-indicator').waitFor({ state: 'detached', timeout: 15_000 });
    await expect(row.locator('[data-status]').getAttribute('data-status')).resolves.toBe('uploaded');
    const stored = await session.running.app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).execute();
    expect(stored).toEqual([{ client_number: 'OFF-1001', status_key: 'uploaded', provider_number: expect.stringMatching(/^SBE\d{9}$/) }]);
    expect(session.pageErrors()).toEqual([]);
  });
});
