import type { ErrorBody } from '../../shared/errors';
import { keyOfWireText, type MessageParam, type MessageRef } from '../../shared/messages';
import { translateDynamic } from './translate';
import type { Translate } from './types';

/**
 * A connection check result in the user's language, by its key; a service's own words (a parameter, or a
 * result without a key) stay as it wrote them, never read as a form hint.
 */
export function connectionResultMessage(result: Said, t: Translate): string {
  if (typeof result === 'string') return result.trim();
  return (result.key && messageByKey({ key: result.key, params: result.params }, t)) || result.message;
}

/** A message as the core sends it to the window: its English text and, for most, its key and parameters. */
export type Said = string | { message: string; key?: string; params?: MessageRef['params'] };

/** How a screen names what messages carry as codes: a field path (`recipient.phone`), a delivery service's key. */
export interface Naming {
  labels?: (path: string, t: Translate) => string;
  service?: (key: string) => string;
}

/** Parameters that hold a delivery service's key (shared/messages/catalog.ts). */
const serviceParams = new Set(['service', 'name']);

/** A status's words for the window: ours by key in its language, else the service's own as it wrote them. */
export const statusWords = (o: { statusDescription: string | null; statusDescriptionMessage?: MessageRef | null }, t: Translate, naming: Naming = {}): string | null =>
  (o.statusDescriptionMessage && messageByKey(o.statusDescriptionMessage, t, naming)) || o.statusDescription;

/**
 * A message by its key (shared/messages); a parameter that is a message is translated too, one named `field`
 * (a field path such as `recipient.phone`) is shown by its label, and with `naming.service` a service's key by
 * its name. Undefined for an unknown key.
 */
export function messageByKey(ref: MessageRef, t: Translate, naming: Naming = {}): string | undefined {
  const labels = naming.labels ?? fieldLabel;
  const param = (name: string, value: MessageParam): string | number => {
    if (typeof value === 'object') return messageByKey(value, t, naming) ?? value.key;
    if (typeof value !== 'string' || !value) return value;
    if (name === 'field') return labels(value, t);
    return naming.service && serviceParams.has(name) ? naming.service(value) : value;
  };
  const params = ref.params && Object.fromEntries(Object.entries(ref.params).map(([name, value]) => [name, param(name, value)]));
  return translateDynamic(t, ref.key, params);
}

/**
 * A message in the user's language: by its key, or a fixed text of the catalog given as its English (the
 * shared schemas' words: 'must be a number'); anything else is someone else's words, shown as written.
 */
export function fieldMessage(said: Said, t: Translate, naming?: Naming): string {
  if (typeof said !== 'string' && said.key) {
    const byKey = messageByKey({ key: said.key, params: said.params }, t, naming);
    if (byKey !== undefined) return byKey;
  }
  const text = (typeof said === 'string' ? said : said.message).trim();
  const fixed = keyOfWireText(text);
  return (fixed && translateDynamic(t, fixed)) || text;
}

/** Groups whose name only repeats what the field name already says. */
const silentGroups = new Set(['order', 'cost']);

/**
 * A dotted field path as a person reads it: `places.0.items.1.quantity` → "Place 1 › Item 2 › Qty",
 * `recipient.phone` → "Recipient › Phone". Unknown names stay as they are.
 */
export function fieldLabel(path: string, t: Translate): string {
  const segments = path.split('.').filter((s) => s !== '');
  const labels: string[] = [];
  segments.forEach((segment, i) => {
    if (/^\d+$/.test(segment)) {
      const n = Number(segment) + 1;
      const parent = segments[i - 1];
      const indexed = parent === 'places' ? t('field.place', { n }) : parent === 'items' ? t('field.item', { n }) : `#${n}`;
      if (parent === 'places' || parent === 'items') labels.pop();
      labels.push(indexed);
      return;
    }
    if (silentGroups.has(segment) && i < segments.length - 1) return;
    labels.push(translateDynamic(t, `field.${segment}`) ?? segment);
  });
  return labels.join(' › ');
}

/**
 * The headline of an error: the translated code (narrowed by the description's key where the dictionary has that:
 * `error.050007.storage.databaseGone`, a database file gone rather than a full disk), else the server's own message.
 */
export function errorTitle(error: ErrorBody, t: Translate): string {
  const narrowed = error.key ? translateDynamic(t, `error.${error.code}.${error.key}`) : undefined;
  return narrowed ?? translateDynamic(t, `error.${error.code}`) ?? error.message;
}

/**
 * A refusal about one order with the order named as the user knows it: the interface says "Заказ 2" (its id),
 * the window says "Заказ 1001" (the shop's number). Unchanged when the message names no order.
 */
export function withOrderNumber(error: ErrorBody, clientNumber: string | undefined): ErrorBody {
  if (clientNumber === undefined || !error.params || !('orderId' in error.params)) return error;
  return { ...error, params: { ...error.params, orderId: clientNumber } };
}

/**
 * A second line for an error: the server's description by its key when it has one; else our own advice in
 * the person's language when we have some (a lost connection, a full disk); else the server's description.
 */
export function errorHint(error: ErrorBody, t: Translate, naming?: Naming): string | undefined {
  return (error.key && messageByKey({ key: error.key, params: error.params }, t, naming)) || translateDynamic(t, `error.${error.code}.hint`) || error.description;
}
