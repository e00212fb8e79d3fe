import type { Locator, Page } from 'playwright-core';
import { kindInfo } from '../../electron/core/providers/connections/connection-fields';
import { carrierKinds } from '../../electron/core/providers/kinds';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { cutTexts } from '../helpers/cut-text';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The two laptop screens most shops have. */
const screens = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];

/** Every connectable service as connections.kinds tells the dialog: its names and its fields (the common ones too). */
const kinds = carrierKinds.map(kindInfo);

const languages = [
  { code: 'ru', switchLabel: 'RU' },
  { code: 'en', switchLabel: 'EN' },
] as const;

async function openDialog(page: Page): Promise<Locator> {
  // a test that failed with the dialog open leaves it for the next one to close
  if (await page.getByTestId('connection-dialog').count()) await closeDialog(page);
  await page.getByTestId('connection-add').click();
  const dialog = page.getByTestId('connection-dialog');
  await dialog.getByTestId('connection-service').waitFor();
  return dialog;
}

async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await page.getByTestId('connection-dialog').waitFor({ state: 'detached' });
}

/** The labels of the service choice that lie outside the dialog's box (left, right or below). */
async function labelsOutside(dialog: Locator): Promise<string[]> {
  const box = await dialog.locator('.mantine-Modal-content').boundingBox();
  if (!box) throw new Error('the dialog has no box');
  const outside: string[] = [];
  for (const label of await dialog.getByTestId('connection-service').locator('label').all()) {
    const b = await label.boundingBox();
    if (!b || b.x < box.x || b.x + b.width > box.x + box.width + 0.5) outside.push((await label.textContent()) ?? '');
  }
  return outside;
}

describe('browser mode: the new-connection dialog offers every service whole on a laptop screen, in Russian and English', () => {
  let session: Session;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-connections').click();
  });
  afterAll(() => session?.close());

  for (const language of languages) {
    for (const screen of screens) {
      it(`${language.code}, ${screen.width}×${screen.height}: every service's name is whole inside the dialog, and picking each shows its own fields`, async () => {
        const { page } = session;
        await page.setViewportSize(screen);
        if (await page.getByTestId('connection-dialog').count()) await closeDialog(page);
        await page.getByTestId('language-switch').getByText(language.switchLabel).click();
        await expect(page.getByTestId('language-switch').locator('input:checked').inputValue()).resolves.toBe(language.code);
        const dialog = await openDialog(page);
        const choice = dialog.getByTestId('connection-service');

        // Every kind is offered by its name in this language, none cut or past the dialog's edge.
        const labels = (await choice.locator('label').allTextContents()).map((l) => l.trim());
        expect(labels).toEqual(kinds.map((k) => k.names[language.code]));
        expect(await cutTexts(page, '[data-testid="connection-service"]')).toEqual([]);
        expect(await labelsOutside(dialog)).toEqual([]);
        await screenshot(page, `connection-dialog-${language.code}-${screen.width}`);

        // Picking each service by its name: it is the one chosen, and the dialog asks for that service's settings.
        for (const kind of [...kinds].reverse()) {
          await choice.getByText(kind.names[language.code], { exact: true }).click();
          await expect(choice.getByTestId(`connection-service-${kind.key}`).isChecked()).resolves.toBe(true);
          for (const field of kind.fields) await dialog.getByTestId(`connection-field-${field.name}`).waitFor();
          const shown = await dialog.locator('[data-testid^="connection-field-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
          expect(shown).toEqual(kind.fields.map((f) => `connection-field-${f.name}`));
          await expect(dialog.getByTestId('connection-testMode').count()).resolves.toBe(kind.testMode ? 1 : 0);
          expect(await cutTexts(page, '[data-testid="connection-service"]')).toEqual([]);
        }
        await closeDialog(page);
        expect(session.pageErrors()).toEqual([]);
      });
    }
  }

  it('the keyboard alone moves the choice: arrows go from service to service and their fields follow', async () => {
    const { page } = session;
    await page.setViewportSize(screens[0]);
    const dialog = await openDialog(page);
    const choice = dialog.getByTestId('connection-service');
    const [first, second] = kinds;
    await expect(choice.getByTestId(`connection-service-${first.key}`).isChecked()).resolves.toBe(true);
    // Tab from the dialog's top reaches the chosen service (the close button first, then the group).
    await choice.getByTestId(`connection-service-${first.key}`).focus();
    await page.keyboard.press('ArrowRight');
    await expect(choice.getByTestId(`connection-service-${second.key}`).isChecked()).resolves.toBe(true);
    for (const field of second.fields) await dialog.getByTestId(`connection-field-${field.name}`).waitFor();
    await page.keyboard.press('ArrowLeft');
    await expect(choice.getByTestId(`connection-service-${first.key}`).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('connection-name');
    await closeDialog(page);
  });
});
