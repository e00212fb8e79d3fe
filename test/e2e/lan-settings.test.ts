import { openBrowserMode, screenshot } from '../helpers/browser';
import { freePort, lanCall, lanTestAddress } from '../helpers/lan';
import { turnOnLan } from './lan-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: Settings → Access from other computers', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
  });
  afterAll(async () => {
    await session?.close();
  });

  it('the owner turns it on for an address; the page shows what to type on the second PC and the fingerprint it must match', async () => {
    const { page } = session;
    const port = await freePort();
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-lan').click();
    const section = page.getByTestId('lan-section');
    await section.getByTestId('lan-off').waitFor();

    // Turned on without an address: the field says what is missing and nothing is saved.
    await section.getByTestId('lan-enabled').check();
    await section.getByTestId('lan-save').click();
    await section.getByText('Выберите хотя бы один адрес').waitFor();
    expect((await session.running.app.services.lan.settings()).enabled).toBe(false);

    await turnOnLan(section, port);

    const url = `https://shop-pc:${port}/`;
    await expect(section.getByTestId('lan-url').inputValue()).resolves.toBe(url);
    const fingerprint = (await section.getByTestId('lan-fingerprint').getAttribute('data-value')) ?? '';
    expect((await section.getByTestId('lan-fingerprint').textContent())?.replace(/\s/g, ':')).toBe(fingerprint);
    expect(fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await section.getByTestId('lan-listener').getByText(`https://${lanTestAddress}:${port}/`).waitFor();
    // The second PC reaches it, and the certificate it sees is the one the page shows.
    const answer = await lanCall(lanTestAddress, port, '/', { host: `shop-pc:${port}` });
    expect([answer.status, answer.fingerprint256]).toEqual([200, fingerprint]);
    await page.getByTestId('toast').first().waitFor();
    await screenshot(page, 'settings-lan-ru');

    // Off again: the page says so and the address stops answering.
    await section.getByTestId('lan-enabled').uncheck();
    await section.getByTestId('lan-save').click();
    await section.getByTestId('lan-off').waitFor();
    await expect(lanCall(lanTestAddress, port, '/')).rejects.toThrow(/ECONNREFUSED/);
    expect(session.pageErrors()).toEqual([]);
  });
});
