import { openBrowserMode, screenshot } from '../helpers/browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** A web page can send the shop's browser to a ShipDesk link of its choosing: the window must not follow silently. */
describe('a link never replaces the signed-in session by itself', () => {
  let session: Session;
  let packerSecret: string;
  let shop: string;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    const { app } = session.running;
    const owner = await app.desktopContext();
    const created = await app.dispatch('users.create', owner, { name: 'Пётр', password: 'packer-password-1' });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const signedIn = await app.dispatch('auth.signIn', { role: null, address: '127.0.0.1' }, { name: 'Пётр', password: 'packer-password-1' });
    if (!signedIn.ok) throw new Error(JSON.stringify(signedIn.error));
    packerSecret = (signedIn.value as { session: { secret: string } }).session.secret;
    shop = (await app.services.settings.get(owner)).company.name;
  });
  afterAll(async () => {
    await session?.close();
  });

  const identity = () => session.page.getByTestId('identity');
  /** As a link on another web page would: the tab leaves and comes back through the link. */
  async function openLink(url: string) {
    await session.page.goto('about:blank');
    await session.page.goto(url);
  }
  const kept = () => session.page.evaluate(() => localStorage.getItem('shipdesk.session'));

  it('a link with another session asks first; staying keeps the owner, also after a reload', async () => {
    const { page, running } = session;
    await identity().filter({ hasText: 'Владелец' }).waitFor();
    const ownerSecret = await kept();
    expect(ownerSecret).toBe(running.ownerSession);

    await openLink(`${running.base}/#session=${encodeURIComponent(packerSecret)}`);
    const prompt = page.getByTestId('session-link-prompt');
    await prompt.getByTestId('session-link-keep').waitFor();
    await expect(identity().textContent()).resolves.toBe(`${shop} · Владелец`);
    await expect(prompt.textContent()).resolves.toContain(`${shop} · Владелец`);
    await screenshot(page, 'session-link-prompt-ru');
    expect(page.url()).not.toContain(packerSecret); // the secret left the address bar at once

    await prompt.getByTestId('session-link-keep').click();
    await prompt.waitFor({ state: 'hidden' });
    expect(await kept()).toBe(ownerSecret);
    await page.reload();
    await identity().filter({ hasText: 'Владелец' }).waitFor();
    await expect(page.getByTestId('session-link-keep').count()).resolves.toBe(0);
  });

  it('an old #token= link with an API token opens nothing and replaces nothing', async () => {
    const { page, running } = session;
    await openLink(`${running.base}/#token=e2e-token-12345`);
    await identity().filter({ hasText: 'Владелец' }).waitFor();
    await expect(page.getByTestId('session-link-keep').count()).resolves.toBe(0);
    expect(page.url()).not.toContain('e2e-token-12345');
    expect(await kept()).toBe(running.ownerSession);
  });

  it('switching happens only when the user chooses the link', async () => {
    const { page, running } = session;
    await openLink(`${running.base}/#session=${encodeURIComponent(packerSecret)}`);
    await page.getByTestId('session-link-switch').click();
    await identity().filter({ hasText: 'Упаковщик: Пётр' }).waitFor();
    expect(await kept()).toBe(packerSecret);
    expect(session.pageErrors()).toEqual([]);
  });
});
