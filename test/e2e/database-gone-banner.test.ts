import { join } from 'node:path';
import { screenshot } from '../helpers/browser';
import { windowOverMovableData } from '../helpers/movable-data';
import { orderPayload } from '../helpers/payloads';

// The data folder renamed away under the open window: said in a banner in the window's language (not as "disk full"),
// and gone once the folder is back and the same step works again.

describe('browser mode: the database file gone', () => {
  const data = windowOverMovableData('shipdesk-gone-e2e-');
  const { dataDir } = data;

  /** Orders sent over the API until one is answered `status` (the app looks at its file before each write: the first one is). */
  const writesAnswer = (status: number) =>
    vi.waitFor(
      async () => {
        const res = await fetch(`${data.session.running.base}/v1/orders`, {
          method: 'POST',
          headers: { Authorization: 'e2e-token-12345', 'Content-Type': 'application/json' },
          body: JSON.stringify(orderPayload(`GONE-${Date.now()}`)),
        });
        expect(res.status, await res.text()).toBe(status);
      },
      { timeout: 10_000, interval: 200 },
    );

  it('is said in a banner in Russian, and the banner goes once the folder is back', async () => {
    const { page } = data.session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-users').click();
    const section = page.getByTestId('users-section');
    await section.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.getByTestId('user-name').fill('Упаковщик');
    await dialog.getByTestId('user-password-input').fill('packer-password-1');

    data.moveAway();
    await writesAnswer(507);

    await dialog.getByTestId('user-save').click();
    const banner = page.getByTestId('storage-full');
    // the headline its toast has, then the core's own message naming the file: one text of each, in the window's language
    await banner.getByText('Файл базы данных пропал: ничего не сохранено').waitFor();
    await banner.getByText(`Файл базы данных ${join(dataDir, 'shipdesk.db')} пропал или заменён`).waitFor();
    await dialog.locator('[data-testid="user-save"]:not([data-loading])').waitFor(); // the answer handled
    // said once: the banner, not again as a toast or under the name field (the dialog stays open, its values kept)
    await expect(page.getByText('Файл базы данных', { exact: false }).count()).resolves.toBe(2); // the banner's headline and its text
    await expect(page.getByTestId('toast').count()).resolves.toBe(0);
    await expect(dialog.getByText('Файл базы данных', { exact: false }).count()).resolves.toBe(0);
    await expect(dialog.getByTestId('user-name').getAttribute('aria-invalid')).resolves.not.toBe('true');
    await expect(dialog.getByTestId('user-name').inputValue()).resolves.toBe('Упаковщик');
    await screenshot(page, 'database-gone-banner-ru');
    // the same banner in English (the dialog closed to reach the header's switch, then filled again)
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('language-switch').getByText('EN').click();
    await banner.getByText('The database file is gone: nothing was saved').waitFor();
    await banner.getByText(`The database file ${join(dataDir, 'shipdesk.db')} is gone or was replaced`).waitFor();
    await expect(page.getByText('The database file', { exact: false }).count()).resolves.toBe(2);
    await screenshot(page, 'database-gone-banner-en');

    // the language kept as a setting is the step that met the gone file last: it goes through again, the banner goes
    data.putBack();
    await writesAnswer(200);
    await page.getByTestId('language-switch').getByText('RU').click();
    await banner.waitFor({ state: 'detached' });
    await section.getByTestId('user-add').click();
    await dialog.getByTestId('user-name').fill('Упаковщик');
    await dialog.getByTestId('user-password-input').fill('packer-password-1');
    await dialog.getByTestId('user-save').click();
    await section.getByTestId('user-row').filter({ hasText: 'Упаковщик' }).waitFor();
    await screenshot(page, 'database-gone-banner-gone');

    // a refusal that is the name's (a packer of that name already there) still goes under the name field, once
    await section.getByTestId('user-add').click();
    await dialog.getByTestId('user-name').fill('Упаковщик');
    await dialog.getByTestId('user-password-input').fill('packer-password-2');
    await dialog.getByTestId('user-save').click();
    await dialog.getByText('Упаковщик с именем Упаковщик уже есть').waitFor();
    await expect(page.getByText('Упаковщик с именем Упаковщик уже есть').count()).resolves.toBe(1);
    await expect(dialog.getByTestId('user-name').getAttribute('aria-invalid')).resolves.toBe('true');
  });
});
