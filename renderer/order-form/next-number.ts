/**
 * The number after a shop's own order number: its last run of digits counted on, with the same width
 * ("1005" → "1006", "ИМ-0099" → "ИМ-0100", "2026/17-A" has no trailing digits → undefined).
 */
export function numberAfter(clientNumber: string): string | undefined {
  const match = clientNumber.trim().match(/^(.*?)(\d+)$/);
  if (!match) return undefined;
  const [, prefix, digits] = match;
  return `${prefix}${(BigInt(digits) + 1n).toString().padStart(digits.length, '0')}`;
}

/**
 * A brand-new shop's first number: four digits, as shop platforms start counting, so the first orders do not
 * look like tests ("1", "2"). The form's hint says so (entry.number.offeredFirst).
 */
export const firstClientNumber = '1001';

/**
 * The number to offer for a new order, from the company's latest orders (newest first): the newest one's
 * series ("ИМ-" in "ИМ-0099"), counted on from the highest number in that series, so an order typed out of
 * turn does not send the count back. No orders yet: the first number.
 */
export function nextClientNumber(latest: readonly string[]): string | undefined {
  if (latest.length === 0) return firstClientNumber;
  const newest = latest[0]?.trim().match(/^(.*?)(\d+)$/);
  if (!newest) return undefined;
  const prefix = newest[1];
  let highest = newest[2];
  for (const number of latest) {
    const m = number.trim().match(/^(.*?)(\d+)$/);
    if (m && m[1] === prefix && BigInt(m[2]) > BigInt(highest)) highest = m[2];
  }
  return numberAfter(prefix + highest);
}
