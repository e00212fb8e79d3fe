import type { ErrorBody } from '../../shared/errors';
import type { MessageRef } from '../../shared/messages';
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
  'must be true or false (1 or 0)': 'rule.bool',
  'must be text': 'rule.text',
  'must be an http(s) address': 'rule.url',
  'must not be before dateFrom': 'rule.dateOrder',
  'is required for CDEK': 'msg.required',
  'is required for an upstream aggregator': 'msg.required',
  'an upstream aggregator always needs its token': 'rule.tokenRequired',
  'are required outside test mode': 'rule.credentialsRequired',
};

/** A delivery service's key as the core names it (`cdek`, `sandbox-express`, `upstream:2:cdek`). */
const service = String.raw`([\w:.-]+)`;
const rx = (source: string) => new RegExp(`^${source}$`, 'i');

/** A message key with the parameters a pattern captured, in order. */
const fill = (t: Translate, key: MessageKey, names: readonly string[], m: RegExpMatchArray) =>
  translateDynamic(t, key, Object.fromEntries(names.map((name, i) => [name, m[i + 1]]))) ?? m[0];

/** Messages with numbers or names, in the core's words (electron/core/orders/order-rules.ts, lists/point-checks.ts, the sandbox intake). */
const ruleMessages: ReadonlyArray<readonly [RegExp, MessageKey, readonly string[]]> = [
  [rx(String.raw`must not be less than the places weigh: they weigh (\d+) g in total, the order says (\d+) g`), 'rule.weightBelowPlaces', ['places', 'order']],
  [rx(String.raw`is less than its items weigh \((\d+) g\)`), 'rule.placeBelowItems', ['items']],
  [rx(String.raw`must cover the goods \(([\d.]+)\) plus deliveryCost \(([\d.]+)\) = ([\d.]+)`), 'rule.codTooSmall', ['goods', 'delivery', 'total']],
  [rx(`unknown delivery service ${service}`), 'rule.unknownProvider', ['name']],
  [rx(String.raw`point (\d+) is closed`), 'rule.pointClosed', ['id']],
  [rx(String.raw`point (\d+) does not hand orders out`), 'rule.pointNoHandOut', ['id']],
  [rx(String.raw`point (\d+) does not take orders in`), 'rule.pointNoTakeIn', ['id']],
  [rx(String.raw`point (\d+) does not take cash on delivery`), 'rule.pointNoCod', ['id']],
  [rx(`point (\\d+) does not exist at ${service}`), 'rule.pointMissing', ['id', 'name']],
  [rx(`${service} does not deliver to the door`), 'rule.noDoorDelivery', ['name']],
  [rx(`${service} does not deliver to pickup points`), 'rule.noPointDelivery', ['name']],
  [rx(`${service} does not collect from the client's door`), 'rule.noDoorPickup', ['name']],
  [rx(`${service} does not take orders at its warehouse`), 'rule.noWarehousePickup', ['name']],
  [rx(`${service} does not take cash on delivery`), 'rule.noCod', ['name']],
  [rx(`tariff (\\d+) is not a tariff of ${service}`), 'rule.tariffUnknown', ['id', 'name']],
  [rx(`tariff (\\d+) does not exist at ${service}`), 'rule.tariffMissing', ['id', 'name']],
  [rx(String.raw`tariff (\d+) delivers to the door \(1\)`), 'rule.tariffToDoor', ['id']],
  [rx(String.raw`tariff (\d+) delivers to a pickup point \(2\)`), 'rule.tariffToPoint', ['id']],
  [rx(String.raw`tariff (\d+) collects from the door \(1\)`), 'rule.tariffFromDoor', ['id']],
  [rx(String.raw`tariff (\d+) expects the order at the warehouse \(2\)`), 'rule.tariffFromWarehouse', ['id']],
  [rx(`(\\d+) is not a pickup point of ${service}`), 'rule.pointOutUnknown', ['id', 'name']],
  [rx(`(\\d+) is not a point of ${service}`), 'rule.pointInUnknown', ['id', 'name']],
  [rx(`${service} has no additional service (\\S+) \\(it has: (.+)\\)`), 'rule.noServiceList', ['name', 'param', 'list']],
  [rx(`${service} has no additional service (\\S+)`), 'rule.noService', ['name', 'param']],
  [rx(String.raw`(\d+) g is over the point's limit of (\d+) g`), 'rule.pointOverWeight', ['weight', 'max']],
  [rx(String.raw`(\d+) g is under the point's minimum of (\d+) g`), 'rule.pointUnderWeight', ['weight', 'min']],
  [rx(String.raw`(\S+) cm does not fit the point's (\S+) cm`), 'rule.pointSize', ['size', 'cell']],
  [rx(String.raw`the sum of the sizes, (\d+) cm, is over the point's limit of (\d+) cm`), 'rule.pointSizeSum', ['sum', 'max']],
  [rx(String.raw`cash on delivery of ([\d.]+) ₽ is over the point's limit of ([\d.]+) ₽`), 'rule.pointOverCod', ['cod', 'max']],
  [rx(String.raw`(\d+) g is over the limit of tariff (\d+) \((\d+) g\)`), 'rule.tariffOverWeight', ['weight', 'id', 'max']],
  [rx(String.raw`(\d+) g is under the minimum of tariff (\d+) \((\d+) g\)`), 'rule.tariffUnderWeight', ['weight', 'id', 'min']],
  [rx(`${service} has no pickup points in (.+)`), 'rule.noPointsInCity', ['name', 'city']],
  [rx(`${service} does not deliver to the door at this address \\(it serves (.+)\\)`), 'rule.noDoorAtAddress', ['name', 'cities']],
  [rx(`${service} does not deliver to the door in (.+)`), 'rule.noDoorInCity', ['name', 'city']],
  [rx(String.raw`must be at least (-?[\d.]+)`), 'rule.atLeast', ['min']],
  [rx(String.raw`must be at most (-?[\d.]+)`), 'rule.atMost', ['max']],
  [rx(String.raw`must be (\d+) or (\d+) digits`), 'rule.digitsEither', ['a', 'b']],
  [rx(String.raw`must be (\d+) digits`), 'rule.digits', ['count']],
  // Courier calls: the built-in services' refusals (electron/core/providers/sandbox/courier.ts) and the core's checks.
  [rx(String.raw`couriers do not come on Sundays \((.+)\)`), 'courier.msg.sunday', ['date']],
  [rx('(.+) is a public holiday; couriers do not come'), 'courier.msg.holiday', ['date']],
  [rx(String.raw`(\d{4}-\d{2}-\d{2}) has passed`), 'courier.msg.passed', ['date']],
  [rx(String.raw`calls are taken at most (\d+) days ahead \(until (.+)\)`), 'courier.msg.ahead', ['days', 'until']],
  [rx('calls for today are taken until (.+); choose another day'), 'courier.msg.cutOff', ['time']],
  [rx('couriers start at (.+)'), 'courier.msg.opens', ['time']],
  [rx('couriers finish at (.+)'), 'courier.msg.closes', ['time']],
  [rx(String.raw`the window must be at least (\d+) hours \((.+) is shorter\)`), 'courier.msg.window', ['hours', 'window']],
  [rx(`${service} does not collect parcels in (.+)`), 'courier.msg.city', ['name', 'city']],
  [rx(`${service} does not take courier calls`), 'courier.msg.noCalls', ['name']],
];

const patternMessages: ReadonlyArray<readonly [RegExp, (t: Translate, m: RegExpMatchArray) => string]> = [
  [/^must be at most (\d+) characters$/i, (t, m) => t('msg.maxLength', { max: m[1] })],
  ...ruleMessages.map(([pattern, key, names]) => [pattern, (t: Translate, m: RegExpMatchArray) => fill(t, key, names, m)] as const),
  [/received undefined|is required$|^required$/i, (t) => t('msg.required')],
  [/\bunique\b|already exists|already used/i, (t) => t('msg.unique')],
  [/^invalid input/i, (t) => t('msg.invalid')],
];

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

/** A message by its key (shared/messages); a parameter that is a message is translated too. Undefined for an unknown key. */
export function messageByKey(ref: MessageRef, t: Translate): string | undefined {
  const params =
    ref.params && Object.fromEntries(Object.entries(ref.params).map(([name, value]) => [name, typeof value === 'object' ? (messageByKey(value, t) ?? value.key) : value]));
  return translateDynamic(t, ref.key, params);
}

/** A field message in the user's language: by its key, else a fixed text we know; anything else as the server wrote it. */
export function fieldMessage(said: Said, t: Translate): string {
  if (typeof said !== 'string' && said.key) {
    const byKey = messageByKey({ key: said.key, params: said.params }, t);
    if (byKey !== undefined) return byKey;
  }
  const trimmed = (typeof said === 'string' ? said : said.message).trim();
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
