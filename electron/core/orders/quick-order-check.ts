import { regexes } from 'zod';
import type { OrderCreate } from '../../../shared/schemas/order';

/**
 * A cheaper way through the schema of POST /orders (`orderCreateSchema`) for the usual order: the one an
 * integration sends over the interface, and the one a spreadsheet row makes (the fields the import's mapper fills
 * from cells and defaults, each already of its type: numbers from number cells, trimmed text). `quickOrderCreate` gives exactly what `orderCreateSchema.parse` gives
 * for such an order, or undefined for anything else — a field it does not know, a value the schema would
 * change, turn or refuse — and then the schema itself judges (and says what is wrong). So it never decides
 * an error: the field errors stay the schema's. zod's check costs ≈ 50–100 µs an order (most of mapping's CPU);
 * this one ≈ 10–20 µs. `quick-order-check.test.ts` holds the two to the same output, key order included.
 */

/** Turns one present value into the schema's output, or undefined: leave it to the schema. */
type Check = (v: unknown) => unknown;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** Text as `text(max)` and `optionalText(max)` give it: trimmed; empty (optional: "not given") is left to the schema. */
const text = (max: number): Check => (v) => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length >= 1 && t.length <= max ? t : undefined;
};
const phone: Check = (v) => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return /^\+?[\d\s\-()]{5,20}$/.test(t) ? t : undefined;
};
// the schema's e-mail check is zod's pattern over the trimmed text; an empty one ("not given") is the schema's
const email: Check = (v) => (typeof v === 'string' && regexes.email.test(v.trim()) ? v.trim() : undefined);
// a country's name ("Россия") is the schema's to turn into its code; two Latin letters are a code already
const country: Check = (v) => (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v.trim()) ? v.trim().toUpperCase() : undefined);
const range = (min: number, max: number, aboveMin: boolean): Check => (v) => (finite(v) && (aboveMin ? v > min : v >= min) && v <= max ? v : undefined);
const grams = range(0, 1_000_000, true);
const gramsOrZero = range(0, 1_000_000, false);
const centimetres = range(0, 1_000, true);
const centimetresOrZero = range(0, 1_000, false);
const positiveInt: Check = (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? v : undefined);
const quantity: Check = (v) => (positiveInt(v) !== undefined && (v as number) <= 100_000 ? v : undefined);
const money: Check = (v) => (finite(v) && v >= 0 && v <= 100_000_000 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6 ? v : undefined);
const oneOrTwo: Check = (v) => (v === 1 || v === 2 ? v : undefined);

/** A part of the payload: its fields in the schema's order (the output's key order), each with its check; `true`: required. */
type Shape = readonly (readonly [key: string, check: Check, required?: true])[];

const orderShape: Shape = [
  ['clientNumber', text(50), true], ['providerKey', text(50), true], ['providerConnectId', positiveInt], ['deliveryType', oneOrTwo, true],
  ['pickupType', oneOrTwo, true], ['tariffId', positiveInt, true], ['pointOutId', positiveInt], ['pointInId', positiveInt], ['weight', grams, true],
  ['length', centimetres], ['width', centimetres], ['height', centimetres], ['comment', text(1000)], ['description', text(1000)], ['paymentMethod', positiveInt],
];
const costShape: Shape = [['assessedCost', money, true], ['codCost', money, true], ['deliveryCost', money], ['quotedDeliveryCost', money], ['paymentMethod', positiveInt]];
const addressShape: Shape = [
  ['countryCode', country, true], ['postIndex', text(20)], ['area', text(255)], ['cityGuid', text(50)], ['companyInn', text(20)], ['additionalPhone', text(30)],
  ['comment', text(1000)], ['region', text(255)], ['city', text(255)], ['street', text(255)], ['house', text(50)], ['block', text(50)], ['office', text(50)],
  ['index', text(20)], ['addressString', text(500)], ['contactName', text(255), true], ['phone', phone, true], ['email', email], ['companyName', text(255)], ['brandName', text(255)],
];
const itemShape: Shape = [
  ['description', text(255), true], ['quantity', quantity, true], ['articul', text(100)], ['barcode', text(100)], ['assessedCost', money], ['cost', money],
  ['weight', gramsOrZero], ['length', centimetresOrZero], ['width', centimetresOrZero], ['height', centimetresOrZero], ['markCode', text(500)],
  ['companyName', text(255)], ['companyInn', text(20)], ['companyPhone', text(30)],
];
const placeShape: Shape = [['placeNumber', text(50)], ['barcode', text(100)], ['weight', grams, true], ['length', centimetres], ['width', centimetres], ['height', centimetres]];

const keysOf = (shape: Shape, ...more: string[]) => new Set([...shape.map(([key]) => key), ...more]);
const known = new Map<Shape, Set<string>>([orderShape, costShape, addressShape, itemShape].map((s) => [s, keysOf(s)]));
known.set(placeShape, keysOf(placeShape, 'items'));
const topKeys = new Set(['order', 'cost', 'sender', 'recipient', 'places']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Only own, known keys: anything else (an unknown field the schema would drop, a null) is the schema's. */
const onlyKnown = (v: Record<string, unknown>, keys: Set<string>) => {
  for (const key in v) if (!keys.has(key) || !Object.hasOwn(v, key)) return false;
  return true;
};

function part(v: unknown, shape: Shape): Record<string, unknown> | undefined {
  if (!isRecord(v) || !onlyKnown(v, known.get(shape)!)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, check, required] of shape) {
    const value = v[key];
    if (value === undefined) {
      if (required || key in v) return undefined;
      continue;
    }
    const checked = check(value);
    if (checked === undefined) return undefined;
    out[key] = checked;
  }
  return out;
}

const postcodeFits = (a: Record<string, unknown>, field: 'index' | 'postIndex') => a.countryCode !== 'RU' || a[field] === undefined || /^\d{6}$/.test(a[field] as string);

function address(v: unknown): Record<string, unknown> | undefined {
  const a = part(v, addressShape);
  if (!a || (!a.addressString && !a.city) || !postcodeFits(a, 'index') || !postcodeFits(a, 'postIndex')) return undefined;
  const index = a.index ?? a.postIndex;
  return index === undefined ? a : { ...a, index, postIndex: index };
}

function list(v: unknown, max: number, each: (entry: unknown) => Record<string, unknown> | undefined): Record<string, unknown>[] | undefined {
  if (!Array.isArray(v) || v.length < 1 || v.length > max) return undefined;
  const out: Record<string, unknown>[] = [];
  for (const entry of v) {
    const checked = each(entry);
    if (!checked) return undefined;
    out.push(checked);
  }
  return out;
}

function place(v: unknown): Record<string, unknown> | undefined {
  const p = part(v, placeShape);
  const items = p && list((v as Record<string, unknown>).items, 500, (item) => part(item, itemShape));
  return items ? { ...p, items } : undefined;
}

/** What `orderCreateSchema.parse(input)` gives, when `input` is of the common shape and valid; otherwise undefined. */
export function quickOrderCreate(input: unknown): OrderCreate | undefined {
  if (!isRecord(input) || !onlyKnown(input, topKeys)) return undefined;
  const order = part(input.order, orderShape);
  if (!order || (order.deliveryType === 2 && order.pointOutId === undefined)) return undefined;
  const cost = part(input.cost, costShape);
  const sender = cost && address(input.sender);
  const recipient = sender && address(input.recipient);
  const places = recipient && list(input.places, 255, place);
  return places ? ({ order, cost, sender, recipient, places } as unknown as OrderCreate) : undefined;
}
