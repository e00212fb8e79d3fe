import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Caller } from '../../electron/core/auth/caller';
import type { RussianPostTuning } from '../../electron/core/providers/russian-post/kind';
import { orderCreateSchema } from '../../shared/schemas/order';
import { russianPostOrder } from '../fakes/russian-post/orders';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_TRACKING, FAKE_POST_USER_KEY, startFakeRussianPost, type FakeRussianPost } from '../fakes/russian-post/server';
import { openBrowserMode, screenshot, screenshotDir } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The PDF as the printer would see it: each page rendered to PNG beside the screenshots. */
function render(pdf: Uint8Array, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '60', file, join(screenshotDir, name)]);
}

describe('browser mode: Russian Post connected in Settings, orders to a post office and to the door, a batch formed, Ф7/Ф112 and Ф103 printed', () => {
  let fake: FakeRussianPost;
  let session: Session;
  let shop: Caller;

  beforeAll(async () => {
    fake = await startFakeRussianPost();
    session = await openBrowserMode({ appOptions: { carrierTuning: { 'russian-post': { timeoutMs: 5_000 } satisfies RussianPostTuning } } });
    shop = await session.running.app.desktopContext();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('Settings: the owner picks Russian Post, fills the fields its kind declares, and "test connection" names the office', async () => {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
    await page.getByTestId('connection-add').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByTestId('connection-service').getByText('Russian Post').or(dialog.getByTestId('connection-service').getByText('Почта России')).first().click();
    await dialog.getByTestId('connection-name').fill('Почта, Мясницкая');
    await dialog.getByTestId('connection-field-accessToken').fill(FAKE_POST_TOKEN);
    await dialog.getByTestId('connection-field-userKey').fill(FAKE_POST_USER_KEY);
    await dialog.getByTestId('connection-field-postofficeCode').fill(FAKE_POST_OFFICE);
    await dialog.getByTestId('connection-field-trackingLogin').fill(FAKE_POST_TRACKING.login);
    await dialog.getByTestId('connection-field-trackingPassword').fill(FAKE_POST_TRACKING.password);
    await dialog.getByTestId('connection-field-trackingUrl').fill(`${fake.url}/tracking`);
    await dialog.getByTestId('connection-baseUrl').fill(fake.url);
    await screenshot(page, 'russian-post-connection');
    await dialog.getByTestId('connection-save').click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('connection-row').filter({ hasText: 'Почта, Мясницкая' });
    await row.getByTestId('connection-test').click();
    await expect(row.getByTestId('connection-test-result').getAttribute('data-ok')).resolves.toBe('true');
    await expect(row.getByTestId('connection-test-message').textContent()).resolves.toBe(`Connected to Russian Post (post office ${FAKE_POST_OFFICE})`);
    await session.running.app.services.connections.refreshPoints();
    expect(session.pageErrors()).toEqual([]);
  });

  it('orders to a post office and to the door reach the backlog; on the dispatch screen a batch is formed, Ф7/Ф112 print, Ф103 is sent and its register prints', async () => {
    const { page } = session;
    const app = session.running.app;
    // The order form has no postal index field yet (a door delivery needs one): the orders come as the shop's API sends them.
    const office = (await app.db.selectFrom('points').select('id').where('source', '=', 'russian-post').where('code', '=', '190000').executeTakeFirstOrThrow()).id;
    await app.services.orders.create(shop, orderCreateSchema.parse(russianPostOrder('RP-E2E-POINT', { toPoint: office })));
    await app.services.orders.create(shop, orderCreateSchema.parse(russianPostOrder('RP-E2E-DOOR')));
    await app.outbox.drain();
    expect(fake.order('RP-E2E-POINT')!.body).toMatchObject({ 'address-type-to': 'DEMAND', 'index-to': 190000 });
    expect(fake.order('RP-E2E-DOOR')!.body).toMatchObject({ courier: true, 'index-to': 101001 });

    await page.reload();
    await page.getByTestId('nav-dispatch').click();
    const group = page.getByTestId('dispatch-group').filter({ has: page.locator('[data-provider="russian-post"]') }).or(page.locator('[data-testid="dispatch-group"][data-provider="russian-post"]')).first();
    await group.getByTestId('dispatch-form-batches').click();
    const batch = page.getByTestId('postal-batch').first();
    await batch.waitFor({ timeout: 15_000 });
    expect(fake.order('RP-E2E-POINT')!.barcode).toMatch(/^\d{14}$/);
    await screenshot(page, 'russian-post-batch');

    await page.evaluate(keepBlobs);
    const forms = await openedPdf(page, () => batch.getByTestId('postal-batch-forms').click());
    expect((await PDFDocument.load(forms)).getPageCount()).toBe(4);
    render(forms, 'russian-post-f7-f112');

    await batch.getByTestId('postal-batch-checkin').click();
    await page.locator('[data-testid="postal-batch"][data-checked-in="true"]').waitFor({ timeout: 15_000 });
    const register = await openedPdf(page, () => page.getByTestId('postal-batch').first().getByTestId('postal-batch-register').click());
    expect((await PDFDocument.load(register)).getPageCount()).toBe(1);
    render(register, 'russian-post-f103');
    await screenshot(page, 'russian-post-checked-in');
    expect(fake.stats.checkins).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });
});
