import type { Page } from 'playwright-core';

/**
 * Waits until the element matched by `selector` has stopped moving and fading (a drawer sliding in,
 * a popover fading in), so a screenshot shows the screen as a person sees it after a moment. Checked
 * on every animation frame: the same place as the frame before, fully opaque, no animation running.
 */
export async function settled(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    const here = `${box.x},${box.y},${box.width},${box.height}`;
    const seen = (window as unknown as { __settled?: Record<string, string> }).__settled ?? {};
    (window as unknown as { __settled: Record<string, string> }).__settled = { ...seen, [sel]: here };
    return seen[sel] === here && getComputedStyle(el).opacity === '1' && el.getAnimations().length === 0;
  }, selector);
}
