import { openBrowserMode, screenshot } from '../helpers/browser';
import { windowOverMovableData } from '../helpers/movable-data';
import { orderPayload } from '../helpers/payloads';
import { fill, fillOrder, labelled } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: drafts', () => {
  let session: Session;
  let ctx: { companyId: number };
  beforeAll(async () => {
    session = await openBrowserMode();
    ctx = { companyId: (await session.running.app.desktopContext()).companyId };
  });
  afterAll(() => session?.close());

  it('keeps a half-typed order through a reload and offers to continue it', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    await fill(form.getByTestId('order-fields'), 'Order number', 'DR-1');
    const recipient = form.getByTestId('recipient-fields');
    await fill(recipient, 'Name', 'Мария Кузнецова');
    await fill(recipient, 'City', 'Казань');
    await fill(form.getByTestId('place-card'), 'Weight, g', '500');
    // Reloaded at once, inside the pause before the database write: the window's own copy carries it over.
    await fill(form.getByTestId('item-row'), 'Description', 'Кружка с котом');
    await page.reload();

    await page.getByTestId('resume-draft').waitFor();
    await expect(page.getByTestId('resume-draft').textContent()).resolves.toMatch(/Мария Кузнецова/);
    await page.getByTestId('resume-draft-continue').click();
    await expect(form.getByTestId('order-fields').getByLabel(labelled('Order number')).inputValue()).resolves.toBe('DR-1');
    await expect(recipient.getByLabel(labelled('City')).inputValue()).resolves.toBe('Казань');
    await expect(form.getByTestId('place-card').getByLabel(labelled('Weight, g')).inputValue()).resolves.toBe('500');
    await expect(form.getByTestId('item-row').getByLabel(labelled('Description')).inputValue()).resolves.toBe('Кружка с котом');
    await page.keyboard.press('Escape');

    const drafts = await session.running.app.services.drafts.list(ctx, { limit: 10, offset: 0 });
    expect(drafts.rows.map((d) => [d.clientNumber, d.recipient])).toEqual([['DR-1', 'Мария Кузнецова']]);
    expect(session.pageErrors()).toEqual([]);
  });

  it('is used from the keyboard: Ctrl+N opens the form at the order number, Tab moves on, Ctrl+S saves, Esc closes', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').waitFor();
    await page.keyboard.press('Control+n');
    const number = page.getByTestId('order-fields').getByLabel(labelled('Order number'));
    await number.waitFor();
    // The form still holds the draft continued above; a new one is started from its footer.
    await page.getByTestId('draft-and-new').click();
    await number.focus();
    await page.keyboard.type('KB-1');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('order-form-recipient-contactName');
    await page.keyboard.type('Ольга Клавишина');
    await page.keyboard.press('Control+s');
    await page.getByTestId('draft-status').filter({ hasText: /Draft saved/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('order-form').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+n');
    await expect(number.inputValue()).resolves.toBe('KB-1');
    await page.keyboard.press('Escape');
    const drafts = await session.running.app.services.drafts.list(ctx, { limit: 10, offset: 0 });
    expect(drafts.rows.map((d) => d.clientNumber).sort()).toEqual(['DR-1', 'KB-1']);
    // Not wanted in the next test.
    await session.running.app.services.drafts.delete(ctx, drafts.rows.find((d) => d.clientNumber === 'KB-1')!.id);
  });

  it('keeps typing safe while ShipDesk cannot be reached, and saves it when it can', async () => {
    const { page } = session;
    await page.route('**/app/commands/drafts.save', (route) => route.abort('internetdisconnected'));
    await page.keyboard.press('Control+n');
    await page.getByTestId('draft-and-new').click();
    await fill(page.getByTestId('order-fields'), 'Order number', 'OFF-1');
    await page.getByTestId('draft-status').filter({ hasText: /^The draft is kept in this window until ShipDesk can be reached$/ }).waitFor();
    await page.unroute('**/app/commands/drafts.save');
    // The next try (a retry shortly after, or the next keystroke) goes through.
    await page.getByTestId('draft-status').filter({ hasText: /Draft saved/ }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    const drafts = await session.running.app.services.drafts.list(ctx, { limit: 10, offset: 0 });
    const saved = drafts.rows.find((d) => d.clientNumber === 'OFF-1');
    expect(saved).toBeDefined();
    await session.running.app.services.drafts.delete(ctx, saved!.id);
  });

  it('lists drafts and submits two at once; the one not ready stays with its reasons', async () => {
    const { page } = session;
    // A complete order typed in the form, put aside with Ctrl+S and "keep as draft".
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    await page.getByTestId('draft-and-new').click();
    await fillOrder(page, { number: 'DR-2', recipient: 'Олег Соколов', city: 'Москва', sender: true });
    await page.getByTestId('price-row').filter({ hasText: /Экспресс дверь-дверь/ }).first().click();
    await page.keyboard.press('Control+s');
    await page.getByTestId('draft-status').filter({ hasText: /Draft saved/ }).waitFor();
    await page.getByTestId('draft-and-new').click();
    await expect(form.getByTestId('order-fields').getByLabel(labelled('Order number')).inputValue()).resolves.toBe('');
    await page.keyboard.press('Escape');
    // One made elsewhere (the payload alone, as another program would save it).
    await session.running.app.services.drafts.save(ctx, { id: 'from-api-1', data: orderPayload('DR-3') as Record<string, unknown> });

    await page.getByTestId('nav-drafts').click();
    const rows = page.getByTestId('draft-row');
    await rows.filter({ hasText: 'DR-3' }).waitFor();
    await expect(rows.count()).resolves.toBe(3);
    for (const number of ['DR-1', 'DR-2', 'DR-3']) await rows.filter({ hasText: number }).getByTestId('draft-select').check();
    await page.getByTestId('drafts-submit-selected').click();

    await page.getByTestId('drafts-result').filter({ hasText: 'Orders created: 2. Not created: 1.' }).waitFor();
    // The list is read again after the result: the two created drafts leave it.
    for (const number of ['DR-2', 'DR-3']) await rows.filter({ hasText: number }).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(1);
    const left = rows.first();
    await expect(left.textContent()).resolves.toMatch(/DR-1/);
    await expect(left.getByTestId('draft-failure').textContent()).resolves.toMatch(/Not created: Some fields are filled in incorrectly.*Fill in this field/);
    await screenshot(page, 'drafts');
    // The reasons are still there after a restart of the window.
    await page.reload();
    await page.getByTestId('nav-drafts').click();
    await rows.first().getByTestId('draft-failure').waitFor();

    const orders = await session.running.app.services.orders.list(ctx, { limit: 10, offset: 0 });
    expect(orders.rows.map((o) => o.clientNumber).sort()).toEqual(['DR-2', 'DR-3']);

    // The refused draft opens in the form with the core's reasons on its fields.
    await left.getByTestId('draft-open').click();
    await page.locator('[data-testid="order-form"] [aria-invalid="true"]').first().waitFor();
    await page.keyboard.press('Escape');

    // Delete asks first.
    await left.getByTestId('draft-delete').click();
    await page.getByTestId('draft-delete-confirm-button').click();
    await page.getByTestId('drafts-empty').waitFor();
    expect((await session.running.app.services.drafts.list(ctx, { limit: 10, offset: 0 })).total).toBe(0);
    expect(session.pageErrors()).toEqual([]);
  });
});

describe('browser mode in Russian: a draft the database cannot take (its file gone)', () => {
  const data = windowOverMovableData('shipdesk-draft-gone-e2e-');

  it('says the draft is kept in this window until it can be saved (ShipDesk answers, it cannot write), and saves it once the file is back', async () => {
    const { page, running } = data.session;
    const status = page.getByTestId('draft-status');
    await page.getByTestId('new-order-button').click();
    await fill(page.getByTestId('order-fields'), 'Номер заказа', 'GONE-1');
    await status.filter({ hasText: /^Черновик сохранён/ }).waitFor();

    data.moveAway();
    await fill(page.getByTestId('order-fields'), 'Номер заказа', 'GONE-2');
    await status.filter({ hasText: /^Черновик хранится в этом окне, пока его не удастся сохранить$/ }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'draft-not-saved-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
    await status.filter({ hasText: /^The draft is kept in this window until it can be saved$/ }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'draft-not-saved-en');

    data.putBack();
    await status.filter({ hasText: /^Draft saved/ }).waitFor({ timeout: 15_000 });
    const ctx = { companyId: (await running.app.desktopContext()).companyId };
    expect((await running.app.services.drafts.list(ctx, { limit: 10, offset: 0 })).rows.map((d) => d.clientNumber)).toEqual(['GONE-2']);
    expect(data.session.pageErrors()).toEqual([]);
  });
});
