import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import type { RussianPostTuning } from '../../electron/core/providers/russian-post/kind';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_TRACKING, FAKE_POST_USER_KEY, startFakeRussianPost, type FakeRussianPost } from '../fakes/russian-post/server';
import { openBrowserMode, screenshot, screenshotDir } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';
import { fillOrder, labelled } from './order-form-steps';

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

  beforeAll(async () => {
    fake = await startFakeRussianPost();
    session = await openBrowserMode({ appOptions: { carrierTuning: { 'russian-post': { timeoutMs: 5_000 } satisfies RussianPostTuning } } });
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

  /** A new order in the form: recipient, parcel and typed sender, Russian Post with the tariff, the drop-off at the shop's office. */
  async function newPostOrder(page: Page, o: { number: string; city: string; tariffId: number }) {
    await page.reload();
    await page.getByTestId('nav-orders').click();
    await page.getByTestId('new-order-button').click();
    await fillOrder(page, { number: o.number, recipient: 'Сидоров Пётр Ильич', city: o.city, sender: true });
    const form = page.getByTestId('order-form');
    await form.getByTestId('service-select').click();
    await page.getByRole('option', { name: 'Почта России' }).click();
    await form.getByTestId('tariff-select').click();
    await page.getByRole('option', { name: new RegExp(`· ${o.tariffId}$`) }).click();
    const dropOff = form.getByTestId('dropoff-picker');
    await dropOff.getByTestId('dropoff-search').fill(FAKE_POST_OFFICE);
    await dropOff.getByTestId('dropoff-option').filter({ hasText: FAKE_POST_OFFICE }).first().click();
    await dropOff.getByTestId('dropoff-chosen').waitFor();
    return form;
  }

  const created = (page: Page, number: string) => page.getByTestId('order-row').filter({ hasText: number }).waitFor({ timeout: 15_000 });

  it('an order to a post office through the form: the tariff "called for" offers post offices only, and the chosen office\'s index becomes the postcode', async () => {
    const { page } = session;
    const form = await newPostOrder(page, { number: 'RP-E2E-POINT', city: 'Санкт-Петербург', tariffId: 9301 });
    const picker = form.getByTestId('point-picker');
    await expect(picker.getByTestId('point-tariff-kinds').textContent()).resolves.toBe('This tariff delivers only to: post offices');
    await expect(picker.getByTestId('point-filter-kind').count()).resolves.toBe(0);
    // Every Saint Petersburg point that may hand this parcel out is listed, and none but the post offices.
    const db = session.running.app.db;
    const offices = await db.selectFrom('points').select('code').where('source', '=', 'russian-post').where('city', '=', 'Санкт-Петербург').where('type', '=', 3).where('enabled', '=', 1).execute();
    const others = await db.selectFrom('points').select('code').where('source', '=', 'russian-post').where('city', '=', 'Санкт-Петербург').where('type', '!=', 3).execute();
    expect(offices.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    await expect.poll(() => picker.getByTestId('point-option').count()).toBe(offices.length);
    await expect(picker.getByTestId('point-option').filter({ hasText: 'post office' }).count()).resolves.toBe(offices.length);
    await picker.getByTestId('point-search').fill('190000');
    await picker.getByTestId('point-option').filter({ hasText: '190000' }).first().click();
    await picker.getByTestId('point-chosen').waitFor();
    await expect(form.getByTestId('recipient-fields').getByLabel(labelled('Postcode')).inputValue()).resolves.toBe('190000');
    await screenshot(page, 'russian-post-form-office');
    await form.getByTestId('submit-order').click();
    await created(page, 'RP-E2E-POINT');
    expect(session.pageErrors()).toEqual([]);
  });

  it('an order to the door through the form: a postcode that is not six digits is refused in the form, the typed one reaches Russian Post, the detail shows it and a copy keeps it', async () => {
    const { page } = session;
    const form = await newPostOrder(page, { number: 'RP-E2E-DOOR', city: 'Москва', tariffId: 9302 });
    const postcode = form.getByTestId('recipient-fields').getByLabel(labelled('Postcode'));
    await postcode.fill('1010');
    await form.getByTestId('submit-order').click();
    const recipient = form.getByTestId('recipient-fields');
    await expect(recipient.getByText('Enter the 6-digit postcode').count()).resolves.toBe(1);
    await recipient.scrollIntoViewIfNeeded();
    await screenshot(page, 'russian-post-form-postcode-refused');
    // The same refusal in Russian: the header's switch stays reachable above the open form.
    await page.getByTestId('language-switch').getByText('RU').click();
    await expect.poll(() => recipient.getByText('Введите почтовый индекс из 6 цифр').count()).toBe(1);
    await screenshot(page, 'russian-post-form-postcode-refused-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
    await postcode.fill('101001');
    await form.getByTestId('submit-order').click();
    await created(page, 'RP-E2E-DOOR');

    await page.getByTestId('order-row').filter({ hasText: 'RP-E2E-DOOR' }).click();
    const detail = page.getByTestId('order-detail');
    await expect(detail.getByTestId('detail-recipient').textContent()).resolves.toContain('101001, Москва');
    await detail.getByTestId('detail-copy-order').click();
    const copy = page.getByTestId('order-form');
    await expect.poll(() => copy.getByTestId('recipient-fields').getByLabel(labelled('Postcode')).inputValue()).toBe('101001');
    await page.keyboard.press('Escape');
    await copy.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    expect(session.pageErrors()).toEqual([]);
  });

  it('both orders reach the backlog as the form made them; on the dispatch screen a batch is formed, Ф7/Ф112 print, Ф103 is sent and its register prints', async () => {
    const { page } = session;
    const app = session.running.app;
    await app.outbox.drain();
    expect(fake.order('RP-E2E-POINT')!.body).toMatchObject({ 'mail-type': 'POSTAL_PARCEL', 'address-type-to': 'DEMAND', 'index-to': 190000, 'postoffice-code': FAKE_POST_OFFICE });
    expect(fake.order('RP-E2E-DOOR')!.body).toMatchObject({ courier: true, 'index-to': 101001, 'place-to': 'Москва', 'postoffice-code': FAKE_POST_OFFICE });

    await page.reload();
    await page.getByTestId('nav-dispatch').click();
    const group = page.getByTestId('dispatch-group').filter({ has: page.locator('[data-provider="russian-post"]') }).or(page.locator('[data-testid="dispatch-group"][data-provider="russian-post"]')).first();
    // Russian Post counts sending days in Moscow time, where it may already be tomorrow (this machine's clock is UTC).
    await group.getByTestId('dispatch-batch-date').fill(new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10));
    await group.getByTestId('dispatch-form-batches').click();
    const batch = page.getByTestId('postal-batch').first();
    await batch.waitFor({ timeout: 15_000 });
    expect(fake.order('RP-E2E-POINT')!.barcode).toMatch(/^\d{14}$/);
    await screenshot(page, 'russian-post-batch');

    // Formed again: both orders are in a batch already, each refusal said in the window's language.
    const refusal = page.getByTestId('toast').filter({ hasText: 'RP-E2E-DOOR' });
    await group.getByTestId('dispatch-form-batches').click();
    await expect(refusal.textContent()).resolves.toMatch(/Not put into a batch: 2.*RP-E2E-\w+ is in a batch already\nRP-E2E-\w+ is in a batch already/s);
    await screenshot(page, 'russian-post-batch-refused-en');
    await page.getByTestId('language-switch').getByText('RU').click();
    await group.getByTestId('dispatch-form-batches').click();
    await expect(refusal.last().textContent()).resolves.toMatch(/RP-E2E-\w+ уже в партии\nRP-E2E-\w+ уже в партии$/);
    await expect(refusal.last().textContent()).resolves.not.toMatch(/batch|already/);
    await screenshot(page, 'russian-post-batch-refused-ru');
    await page.getByTestId('language-switch').getByText('EN').click();

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
