/** Numbers on printed forms, written the Russian way (space between thousands, comma before decimals). */

const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const kilograms = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 3 });

// Intl writes a narrow no-break space between thousands; the embedded font has it, but a plain
// no-break space reads the same everywhere (ZPL printers included).
const plainSpaces = (s: string) => s.replace(/[\u202f\u00a0]/g, '\u00a0');

export const formatRubles = (kopecks: number) => `${plainSpaces(rubles.format(kopecks / 100))} ₽`;
/** Rubles without the sign, for table columns headed "₽". */
export const formatAmount = (kopecks: number) => plainSpaces(rubles.format(kopecks / 100));
export const formatKilograms = (grams: number) => `${plainSpaces(kilograms.format(grams / 1000))} кг`;
export const formatWeight = (grams: number) => plainSpaces(kilograms.format(grams / 1000));

/** DD.MM.YYYY of an epoch-ms moment in the app's time zone. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()}`;
}
