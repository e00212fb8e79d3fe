/**
 * The fields a spreadsheet column can fill (`columnMap` / `defaultData` keys of POST /orders/upload):
 * every key of the interface's upload table, plus a few the order payload has and the table does not
 * show (order.deliveryDate, order.comment, sender/recipient.index, sender.brandName). extraParams.{name}
 * keys are open-ended and checked against the delivery service's additional services.
 */

/** How a cell is read: text, a number (decimal comma and spaces allowed), a time, a date, or a person's name. */
export type KeyKind = 'text' | 'number' | 'time' | 'date';

/** Where the value lives: once per order (the order's row), or once per item row. */
export type KeyLevel = 'order' | 'item';

export interface KeySpec {
  level: KeyLevel;
  kind: KeyKind;
  /**
   * Required by the upload table. 'address': required unless the party's addressString is given
   * (the parsed address then fills it).
   */
  required: boolean | 'address';
}

const order = (kind: KeyKind, required: KeySpec['required'] = false): KeySpec => ({ level: 'order', kind, required });
const item = (kind: KeyKind, required = false): KeySpec => ({ level: 'item', kind, required });

const party = (prefix: 'sender' | 'recipient'): Record<string, KeySpec> => ({
  [`${prefix}.phone`]: order('text', true),
  [`${prefix}.contactName`]: order('text', true),
  [`${prefix}.countryCode`]: order('text', 'address'),
  [`${prefix}.region`]: order('text', 'address'),
  [`${prefix}.city`]: order('text', 'address'),
  [`${prefix}.street`]: order('text', 'address'),
  [`${prefix}.house`]: order('text', 'address'),
  [`${prefix}.companyName`]: order('text'),
  [`${prefix}.block`]: order('text'),
  [`${prefix}.office`]: order('text'),
  [`${prefix}.email`]: order('text'),
  [`${prefix}.addressString`]: order('text'),
  [`${prefix}.index`]: order('text'),
  ...(prefix === 'sender' ? { 'sender.brandName': order('text') } : {}),
});

export const uploadKeys: Readonly<Record<string, KeySpec>> = {
  'order.clientNumber': order('text', true),
  'order.weight': order('number', true),
  'order.height': order('number'),
  'order.length': order('number'),
  'order.width': order('number'),
  'order.providerKey': order('text', true),
  'order.providerConnectId': order('number'),
  'order.pickupType': order('number', true),
  'order.deliveryType': order('number', true),
  'order.pointInId': order('number'),
  'order.pointOutId': order('number'),
  'order.tariffId': order('number', true),
  'order.deliveryTimeStart': order('time'),
  'order.deliveryTimeEnd': order('time'),
  'order.deliveryDate': order('date'),
  'order.comment': order('text'),
  'cost.assessedCost': order('number', true),
  'cost.codCost': order('number', true),
  'cost.deliveryCost': order('number'),
  ...party('sender'),
  ...party('recipient'),
  'place.placeNumber': order('text'),
  'place.barcode': order('text'),
  'place.height': order('number', true),
  'place.width': order('number', true),
  'place.length': order('number', true),
  'place.weight': order('number', true),
  'item.description': item('text', true),
  'item.quantity': item('number', true),
  'item.weight': item('number', true),
  'item.articul': item('text'),
  'item.barcode': item('text'),
  'item.assessedCost': item('number'),
  'item.cost': item('number'),
  'item.height': item('number'),
  'item.length': item('number'),
  'item.width': item('number'),
};

/** `place.items` appears in the upload table as "the items"; it names no column and is accepted and ignored. */
export const ignoredKeys = new Set(['place.items']);

export const extraParamPrefix = 'extraParams.';

/** The spec of a key, extraParams.{name} included; undefined for an unknown key. */
export function keySpec(key: string): KeySpec | undefined {
  if (Object.hasOwn(uploadKeys, key)) return uploadKeys[key];
  if (key.startsWith(extraParamPrefix) && /^[A-Za-z][\w-]{0,99}$/.test(key.slice(extraParamPrefix.length))) return order('text');
  return undefined;
}

export const parties = ['sender', 'recipient'] as const;
export type Party = (typeof parties)[number];

/** The structured address parts a party's addressString can stand in for. */
export const addressParts = ['countryCode', 'region', 'city', 'street', 'house', 'block', 'office', 'index'] as const;
