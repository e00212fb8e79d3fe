/**
 * How orders are found by what a shop types: one normalisation for the text kept in the search index
 * and for the search itself, so both sides always agree. The SQLite store calls it from its index
 * triggers (a registered SQL function); a PostgreSQL store writes its result into the column its
 * pg_trgm index covers. No Node, no DOM.
 */

/** Case and ё folded: "Семёнова" and "семенова" are one word to a shop. */
export const foldText = (text: string): string => text.toLocaleLowerCase('ru-RU').replaceAll('ё', 'е');

/**
 * A phone as digits in one national form: "+7 (916) 123-45-67", "8 916 123-45-67" and "89161234567"
 * all become 79161234567. Empty when the text holds no digits.
 */
export function phoneDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('8') ? `7${digits.slice(1)}` : digits;
}

/** What of an order is searched besides its numbers: recipient's name, phone, e-mail, city and street. */
export interface SearchableRecipient {
  name: string | null;
  phone: string | null;
  email: string | null;
  city: string | null;
  street: string | null;
  /** The one-line address, when the order has one instead of (or beside) parts. */
  addressString: string | null;
}

/** The text the search index keeps for an order's recipient (fields apart, so no match spans two of them). */
export function recipientSearchText(r: SearchableRecipient): string {
  const parts = [r.name, r.email, r.city, r.street, r.addressString].filter((p): p is string => !!p?.trim()).map(foldText);
  const phone = r.phone ? phoneDigits(r.phone) : '';
  return [...parts, phone].filter(Boolean).join(' | ');
}

/**
 * What a typed search looks for, any of them matching: the folded text, and for something phone-like
 * ("+7 (916) 123-45-67", "917 444", "8 916 123") its digits in the national form (a leading 8 read as 7
 * too, as a search that is not a whole number leaves it open which was meant).
 */
export function searchVariants(search: string): string[] {
  const text = foldText(search.trim());
  if (!/^[\d\s()+\-.]+$/.test(text)) return [text];
  const digits = phoneDigits(text);
  const variants = new Set([text, digits]);
  if (digits.length >= 4 && digits.length < 11 && digits.startsWith('8')) variants.add(`7${digits.slice(1)}`);
  return [...variants].filter(Boolean);
}
