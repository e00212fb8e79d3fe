import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { openBrowserMode } from '../helpers/browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

describe('browser mode: printing a barcode label', () => {
  let fake: FakeCdek;
  let session: Session;

  beforeAll(async () => {
    fake = await startFakeCdek();
    session = await openBrowserMode({ appOptions: { cdek: { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} } } });
    const { app } = session.running;
    const shop = await app.desktopContext();
    const created = await app.dispatch('connections.create', shop, { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const order = await app.dispatch('orders.create', shop, cdekOrder('LABEL-1'));
    if (!order.ok) throw new Error(JSON.stringify(order.error));
    await app.outbox.drain();
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('a registered CDEK order offers "Print labels", which opens the PDF the service made in a new tab', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('order-row').filter({ hasText: 'LABEL-1' }).click();
    const drawer = page.getByTestId('order-detail');
    const button = drawer.getByTestId('detail-label');
    await button.waitFor();
    // The tab shows a blob: URL made in the page, which the window's CSP (connect-src 'self') will not let
    // a fetch read; so the blobs the page makes are kept by their URL and the tab's one is read directly.
    await page.evaluate(() => {
      const made = new Map<string, Blob>();
      (window as unknown as { madeBlobs: Map<string, Blob> }).madeBlobs = made;
      const create = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (blob: Blob) => {
        const url = create(blob);
        made.set(url, blob);
        return url;
      };
    });
    const [tab] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    expect(tab.url()).toMatch(/^blob:/);
    const head = await page.evaluate(
      async (url) => new TextDecoder().decode((await (window as unknown as { madeBlobs: Map<string, Blob> }).madeBlobs.get(url)!.arrayBuffer()).slice(0, 5)),
      tab.url(),
    );
    expect(head).toBe('%PDF-');
    expect(fake.stats.byRoute['POST /v2/print/barcodes']).toBe(1);
    expect(session.pageErrors()).toEqual([]);
  });
});
