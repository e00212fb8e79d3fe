import type { Page } from 'playwright-core';

/**
 * Latin words a Russian screen may show: names of products and services, file formats, protocols and key names.
 * Anything else in Latin letters is an untranslated text.
 */
export const latinAllowList: ReadonlySet<string> = new Set([
  // products and delivery services
  'ShipDesk', 'CDEK', 'Boxberry', 'Yandex', 'InSales', 'Tilda', 'WooCommerce', 'Excel', 'LibreOffice', 'Windows', 'Chrome', 'Chromium', 'Zebra',
  'PHP', 'SDK',
  // formats, protocols, codes
  'API', 'HTTP', 'HTTPS', 'JSON', 'XML', 'PDF', 'ZPL', 'xlsx', 'XLSX', 'CSV', 'LAN', 'IP', 'URL', 'ID', 'Wi', 'Fi', 'SSE', 'OpenAPI', 'Bearer', 'SMS',
  // languages by their codes and own names (the language switch)
  'RU', 'EN', 'English',
  // keys on the keyboard
  'Ctrl', 'Enter', 'Esc', 'Shift', 'Alt', 'Tab', 'Cmd',
]);

/** What is not a word to translate: links, e-mail addresses, file names, and tokens with digits in them (codes, numbers, "1С"). */
const notWords = [
  /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, // URLs
  /\S+@\S+/g, // e-mail addresses, user@host
  /\S+\.(?:xlsx|xls|csv|pdf|zip|json|log|db|sqlite|txt|png)\b/gi, // file names
  /\S*\d\S*/g, // codes and numbers: SBEC123, A4, DR-1, 127.0.0.1
  /\b[A-Z]\b/g, // a single capital: a spreadsheet's column letter, a locker cell's size (S, M, L)
];

/** The Latin words of a text that are neither on the allow-list nor part of a link, address, file name or code. */
export function untranslatedWords(text: string, allow: ReadonlySet<string> = latinAllowList): string[] {
  let rest = text;
  for (const pattern of notWords) rest = rest.replace(pattern, ' ');
  return (rest.match(/[A-Za-z]+/g) ?? []).filter((word) => !allow.has(word));
}

export interface ShownText {
  /** Where it was seen: "text", or the attribute (title, placeholder, aria-label, value). */
  kind: string;
  text: string;
  /** The nearest data-testid around it, to find it in the code. */
  near: string;
}

/**
 * Every text the screen shows now: visible text nodes, and the titles, placeholders, aria-labels and
 * input values of visible elements (a select shows its chosen option as the input's value). Code blocks
 * (code, pre, kbd) are code, not text.
 */
export async function shownTexts(page: Page): Promise<ShownText[]> {
  return page.evaluate(() => {
    const out: { kind: string; text: string; near: string }[] = [];
    const nearOf = (el: Element | null) => el?.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
    const visible = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && el.getClientRects().length > 0;
    const inCode = (el: Element) => el.closest('code, pre, kbd, samp') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || !/[A-Za-z]/.test(text) || parent.closest('script, style, noscript') || inCode(parent) || !visible(parent)) continue;
      out.push({ kind: 'text', text, near: nearOf(parent) });
    }
    for (const el of document.body.querySelectorAll('[title], [placeholder], [aria-label], input, textarea')) {
      if (!visible(el) || inCode(el)) continue;
      for (const attr of ['title', 'placeholder', 'aria-label']) {
        const text = el.getAttribute(attr)?.trim();
        if (text && /[A-Za-z]/.test(text)) out.push({ kind: attr, text, near: nearOf(el) });
      }
      if ((el instanceof HTMLInputElement && !['hidden', 'file', 'checkbox', 'radio', 'password'].includes(el.type)) || el instanceof HTMLTextAreaElement) {
        const text = el.value.trim();
        if (text && /[A-Za-z]/.test(text)) out.push({ kind: 'value', text, near: nearOf(el) });
      }
    }
    return out;
  });
}

/** The screen's texts with words that are not Russian, each once, as "kind [near]: text". */
export async function untranslatedOnScreen(page: Page, allow: ReadonlySet<string> = latinAllowList): Promise<string[]> {
  const found = (await shownTexts(page)).filter((t) => untranslatedWords(t.text, allow).length > 0).map((t) => `${t.kind} [${t.near}]: ${t.text}`);
  return [...new Set(found)];
}
