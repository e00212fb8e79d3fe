import type { Page } from 'playwright-core';

/** Which texts to judge: those matching `text` (a RegExp source) or inside / holding an element matching `within`. */
export interface CutTextFilter {
  text?: string;
  within?: string;
}

/**
 * Texts a person cannot read whole inside `selector`: an element holding text whose box is narrower than
 * its text (scrollWidth over clientWidth: cut, or an ellipsis), or whose right edge is past the window's.
 * Inline elements are judged by the box that holds them. With `only`, just the texts it names are judged
 * (a table that cuts long names by design must still show its dates and statuses whole).
 */
export async function cutTexts(page: Page, selector: string, only?: CutTextFilter): Promise<string[]> {
  return page.locator(selector).evaluateAll((roots, only) => {
    const pattern = only?.text ? new RegExp(only.text) : undefined;
    const judged = (el: HTMLElement, text: string) =>
      !only || (pattern?.test(text) ?? false) || (only.within ? el.closest(only.within) !== null || el.querySelector(only.within) !== null : false);
    const cut: string[] = [];
    const viewport = document.documentElement.clientWidth;
    for (const root of roots) {
      for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')] as HTMLElement[]) {
        const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
        if (!ownText || !judged(el, (el.textContent ?? '').trim())) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
        const box = style.display === 'inline' ? (el.parentElement ?? el) : el;
        const narrower = box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'auto' && getComputedStyle(box).overflowX !== 'scroll';
        const pastEdge = el.getBoundingClientRect().right > viewport + 1;
        if (narrower || pastEdge) cut.push((el.textContent ?? '').trim());
      }
    }
    return [...new Set(cut)];
  }, only);
}
