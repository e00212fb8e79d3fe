import type { ErrorBody } from '../../shared/errors';
import { translateDynamic } from './translate';
import type { MessageKey, Translate } from './types';

/** Field messages of the shared schemas (shared/schemas/primitives.ts, order.ts), which the core also returns. */
const exactMessages: Readonly<Record<string, MessageKey>> = {
  'must not be empty': 'msg.required',
  'is required': 'msg.required',
  required: 'msg.required',
  'must be a number': 'msg.number',
  'must be a whole number': 'msg.wholeNumber',
  'must be greater than 0': 'msg.positive',
  'must not be negative': 'msg.notNegative',
  'is too large': 'msg.tooLarge',
  'must have at most two decimals (kopecks)': 'msg.kopecks',
  'must be a phone number': 'msg.phone',
  'must be an e-mail address': 'msg.email',
  'city or addressString is required': 'msg.cityRequired',
  'is required when deliveryType = 2': 'msg.pointRequired',
  'a place needs at least one item': 'msg.itemRequired',
  'at least one place is required': 'msg.placeRequired',
  'must be 1 (door) or 2 (pickup point)': 'msg.choose',
  'must be 1 (door) or 2 (warehouse)': 'msg.choose',
  'must be a two-letter ISO 3166-1 country code': 'msg.countryCode',
  'must be a time HH:MM': 'msg.time',
  'must be a date YYYY-MM-DD': 'msg.date',
  'must be a real date': 'msg.date',
  'must be later than deliveryTimeStart': 'msg.timeOrder',
};

const patternMessages: ReadonlyArray<readonly [RegExp, (t: Translate, m: RegExpMatchArray) => string]> = [
  [/^must be at most (\d+) characters$/i, (t, m) => t('msg.maxLength', { max: m[1] })],
  [/received undefined|is required$|^required$/i, (t) => t('msg.required')],
  [/\bunique\b|already exists|already used/i, (t) => t('msg.unique')],
  [/^invalid input/i, (t) => t('msg.invalid')],
];

/** A field message in the user's language; a message we do not know is shown as the server wrote it. */
export function fieldMessage(message: string, t: Translate): string {
  const trimmed = message.trim();
  const key = exactMessages[trimmed] ?? exactMessages[trimmed.toLowerCase()];
  if (key) return translateDynamic(t, key) ?? trimmed;
  for (const [pattern, render] of patternMessages) {
    const match = trimmed.match(pattern);
    if (match) return render(t, match);
  }
  return trimmed;
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

/** The headline of an error: the translated code, else the server's own message. */
export function errorTitle(error: ErrorBody, t: Translate): string {
  return translateDynamic(t, `error.${error.code}`) ?? error.message;
}

/** A second line for an error: the server's description, or advice for a lost connection. */
export function errorHint(error: ErrorBody, t: Translate): string | undefined {
  return error.description ?? translateDynamic(t, `error.${error.code}.hint`);
}
