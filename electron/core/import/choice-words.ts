/**
 * The words shops write in a spreadsheet instead of the interface's codes. "Доставка": "До двери",
 * "ПВЗ", "курьер" → deliveryType 1 or 2; "Передача заказа": "Заберёт курьер", "Сдам в отделение" →
 * pickupType 1 or 2. The codes themselves stay accepted (the interface's upload sends 1 and 2).
 */

export type ChoiceField = 'order.deliveryType' | 'order.pickupType';

/** Words of each code, already folded (lower case, ё as е); a cell matches when it is one of them or holds one as whole words. */
const words: Record<ChoiceField, Record<1 | 2, readonly string[]>> = {
  'order.deliveryType': {
    1: ['до двери', 'дверь', 'курьер', 'курьером', 'курьерская доставка', 'доставка курьером', 'на дом', 'по адресу', 'адресная', 'door', 'to door', 'to the door', 'courier', 'home', 'home delivery', 'address'],
    2: ['пвз', 'в пвз', 'пункт выдачи', 'в пункт выдачи', 'до пункта выдачи', 'самовывоз', 'постамат', 'в постамат', 'отделение', 'pickup point', 'pick-up point', 'pickup', 'point', 'parcel locker', 'locker', 'self pickup'],
  },
  'order.pickupType': {
    1: ['заберет курьер', 'курьер', 'курьером', 'забор', 'забор курьером', 'вызов курьера', 'от двери', 'с адреса', 'door', 'from door', 'from the door', 'courier', 'courier pickup', 'collect'],
    2: ['сдам в отделение', 'отделение', 'в отделение', 'сдам сам', 'сам привезу', 'склад', 'на склад', 'пункт приема', 'в пункт приема', 'пвз', 'drop off', 'drop-off', 'office', 'warehouse', 'self drop-off'],
  },
};

export const choiceFields = Object.keys(words) as ChoiceField[];
export const isChoiceField = (key: string): key is ChoiceField => Object.hasOwn(words, key);

export const foldWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[«»"'().,;:!]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const containsWords = (text: string, phrase: string) => ` ${text} `.includes(` ${phrase} `);

/**
 * The code a cell means: 1 or 2 written as a number or as words; undefined when it is neither (or names both).
 * An exact word wins over words found inside a longer text ("курьер" alone, "доставка курьером до двери").
 */
export function choiceCode(field: ChoiceField, cell: string | number): 1 | 2 | undefined {
  const text = foldWords(String(cell));
  if (text === '1' || text === '2') return Number(text) as 1 | 2;
  const table = words[field];
  for (const code of [1, 2] as const) if (table[code].includes(text)) return code;
  const hits = ([1, 2] as const).filter((code) => table[code].some((w) => containsWords(text, w)));
  return hits.length === 1 ? hits[0] : undefined;
}

