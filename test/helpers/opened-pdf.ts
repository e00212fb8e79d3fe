import type { Page } from 'playwright-core';

/** Keeps each blob the page makes a link for, so the test can read the file it opened in a new tab. */
export const keepBlobs = `(() => {
  const make = URL.createObjectURL.bind(URL);
  window.__blobs = new Map();
  URL.createObjectURL = (blob) => { const url = make(blob); window.__blobs.set(url, blob); return url; };
})()`;

/** The PDF the page opened in a new tab (browser mode prints from the browser's own viewer). */
export async function openedPdf(page: Page, click: () => Promise<void>): Promise<Uint8Array> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), click()]);
  const url = popup.url();
  expect(url).toMatch(/^blob:/);
  const base64 = await page.evaluate(async (blobUrl) => {
    const blob = (window as unknown as { __blobs: Map<string, Blob> }).__blobs.get(blobUrl)!;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  }, url);
  await popup.close();
  return Buffer.from(base64, 'base64');
}
