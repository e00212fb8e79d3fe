import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { ordersWorkbook, sampleOrder } from '../fixtures/xlsx/orders-workbook';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

// What a shop sees when things go wrong around it: a full disk said plainly in its language (and gone by
// itself once there is room), and the logs it can send to support.

describe('browser mode: support', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode({ appOptions: { log: undefined } }); // the app's own log file, as npm start writes it
  });
  afterAll(async () => {
    await session?.close();
  });

  it('Settings → "Save logs for support" gives a zip of the app\'s log files', async () => {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-data').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-support-logs').click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const files = unzipSync(readFileSync((await download.path())!));
    const logs = Object.keys(files).filter((name) => name.endsWith('.log'));
    expect(logs.length).toBeGreaterThan(0);
    // JSON lines, the app's own start among them
    const lines = logs.flatMap((name) => Buffer.from(files[name]).toString('utf8').split('\n').filter(Boolean));
    expect(lines.every((line) => typeof JSON.parse(line).msg === 'string')).toBe(true);
    await page.getByText('Logs saved:').waitFor();
    await screenshot(page, 'settings-save-logs');
  });
});

const disk = mountSmallDisk('the disk-full banner test');

describe.skipIf(disk === null)('browser mode: a full disk', () => {
  let session: Session;
  let dir: string;
  const filler = join(disk ?? '', 'filler.bin');
  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU', dataDir: join(disk!, 'data') });
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-full-e2e-'));
  });
  afterAll(async () => {
    await session?.close();
    rmSync(filler, { force: true });
    unmountSmallDisk(disk!);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is said in a banner in the window\'s language, and the banner goes once the same step works again', async () => {
    const { page } = session;
    const { buffer } = await ordersWorkbook([sampleOrder('DISK-1')], { itemsNewRow: true });
    const file = join(dir, 'orders.xlsx');
    writeFileSync(file, buffer);

    fillDisk(filler);
    await page.getByTestId('nav-import').click();
    await page.getByTestId('import-file-input').setInputFiles(file); // the file is kept in the data folder: no room
    const banner = page.getByTestId('storage-full');
    await banner.getByText('Диск заполнен').waitFor();
    await banner.getByText('ShipDesk не может ничего сохранить').waitFor();
    // said once, in Russian: no second box on the import page repeating it, no toast, not the core's English
    await expect(page.getByText('Диск заполнен', { exact: false }).count()).resolves.toBe(1);
    await expect(page.getByTestId('import-file-refused').count()).resolves.toBe(0);
    await expect(page.getByTestId('toast').count()).resolves.toBe(0);
    await expect(page.getByText('The disk of the ShipDesk data folder', { exact: false }).count()).resolves.toBe(0);
    await screenshot(page, 'disk-full-banner-ru');
    // the same in English
    await page.getByTestId('language-switch').getByText('EN').click();
    await banner.getByText('The disk is full: nothing was saved').waitFor();
    await banner.getByText('ShipDesk cannot save anything').waitFor();
    await expect(page.getByText('The disk is full', { exact: false }).count()).resolves.toBe(1);
    await expect(page.getByTestId('import-file-refused').count()).resolves.toBe(0);
    await screenshot(page, 'disk-full-banner-en');
    await page.getByTestId('language-switch').getByText('RU').click();
    await banner.getByText('Диск заполнен').waitFor();

    rmSync(filler);
    await page.getByTestId('import-file-input').setInputFiles(file);
    await page.getByTestId('import-preview-grid').waitFor();
    await banner.waitFor({ state: 'detached' });
    await screenshot(page, 'disk-full-banner-gone');
  });
});
