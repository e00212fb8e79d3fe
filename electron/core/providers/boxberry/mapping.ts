/**
 * Pure mapping between ShipDesk's model and Boxberry's json.php API: no I/O, no clock. The adapter
 * (boxberry-provider.ts) does the talking; each function is tested against the fixtures in ./fixtures.
 */
import type { FieldError } from '../../../../shared/errors';
import { toKopecks, toRubles } from '../../../../shared/money';
import type { Point, Tariff, Worktime } from '../../../../shared/schemas/lists';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { StatusKey } from '../../../../shared/status-keys';
import type { CourierCallRequest } from '../courier-call';
import type { ProviderStatus } from '../provider';
import type { BoxberryPoint, BoxberryStatus } from './wire';

export const BOXBERRY_KEY = 'boxberry';

// ---------------------------------------------------------------- tariffs

/** Boxberry's kinds of delivery (`vid`) as our tariffs; the shop hands parcels over at a Boxberry point (pickupType 2). */
export const boxberryTariffs = [
  { id: 9201, name: 'Boxberry: до пункта выдачи', vid: '1', deliveryType: 2 },
  { id: 9202, name: 'Boxberry: курьером до двери', vid: '2', deliveryType: 1 },
] as const;

export const boxberryTariffOf = (id: number) => boxberryTariffs.find((t) => t.id === id) ?? null;

export function boxberryTariffRecords(): Tariff[] {
  return boxberryTariffs.map((t) => ({
    id: t.id,
    providerKey: BOXBERRY_KEY,
    name: t.name,
    description: null,
    aliasName: `boxberry-${t.vid === '1' ? 'pickup' : 'courier'}`,
    weightMin: null,
    weightMax: 31_000,
    pickupType: 2,
    deliveryType: t.deliveryType,
    paymentCash: 1,
  }));
}

// ---------------------------------------------------------------- the parcel

/** The `sdata` of ParselCreate. Money in rubles (Boxberry's unit), weights in grams, sizes in cm. */
export interface BoxberryParcel {
  updateByTrack?: string;
  order_id: string;
  price: number;
  payment_sum: number;
  delivery_sum: number;
  vid: '1' | '2';
  shop: { name: string; name1: string };
  customer: { fio: string; phone: string; email?: string };
  kurdost?: { index?: string; citi?: string; addressp: string; delivery_date?: string; timesfrom1?: string; timesto1?: string; comentk?: string };
  items: { id: string; name: string; UnitName: string; nds?: number; price: number; quantity: number }[];
  weights: Record<string, number>;
  notice?: string;
}

/** Boxberry takes at most five boxes a parcel (weight, weight2 … weight5). */
export const MAX_PLACES = 5;

const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
const rubles = (value: number | undefined) => toRubles(toKopecks(value ?? 0));

/** What ShipDesk can tell without calling Boxberry: too many boxes, a COD the items do not carry. */
export function boxberryOrderErrors(order: OrderCreate): FieldError[] {
  const errors: FieldError[] = [];
  if (order.places.length > MAX_PLACES) errors.push({ field: 'places', message: `Boxberry takes at most ${MAX_PLACES} boxes a parcel` });
  const delivery = order.cost.deliveryCost ?? 0;
  if (toKopecks(order.cost.codCost) > 0 && toKopecks(delivery) > toKopecks(order.cost.codCost)) {
    errors.push({ field: 'cost.deliveryCost', message: 'cannot be more than the cash on delivery for Boxberry' });
  }
  return errors;
}

/**
 * Our order → ParselCreate's `sdata`. Boxberry collects one sum (`payment_sum`, the whole codCost) of which
 * `delivery_sum` is the recipient's delivery charge; `price` is the declared value.
 */
export function toBoxberryParcel(order: OrderCreate, points: { dropOff: string; target?: string }, updateByTrack?: string): BoxberryParcel {
  const o = order.order;
  const r = order.recipient;
  const cod = toKopecks(order.cost.codCost) > 0;
  const weights: Record<string, number> = {};
  order.places.forEach((p, i) => {
    const n = i === 0 ? '' : String(i + 1);
    const single = order.places.length === 1;
    weights[`weight${n}`] = Math.max(1, Math.round(p.weight));
    const x = p.length ?? (single ? o.length : undefined);
    const y = p.width ?? (single ? o.width : undefined);
    const z = p.height ?? (single ? o.height : undefined);
    if (x && y && z) Object.assign(weights, { [`x${n}`]: Math.ceil(x), [`y${n}`]: Math.ceil(y), [`z${n}`]: Math.ceil(z) });
  });
  const street = [r.street, r.house && `д. ${r.house}`, r.block && `корп. ${r.block}`, r.office && `кв. ${r.office}`].filter(Boolean).join(', ');
  return clean({
    updateByTrack,
    order_id: o.clientNumber,
    price: rubles(order.cost.assessedCost),
    payment_sum: cod ? rubles(order.cost.codCost) : 0,
    delivery_sum: cod ? rubles(order.cost.deliveryCost) : 0,
    vid: o.deliveryType === 2 ? '1' : '2',
    shop: { name: o.deliveryType === 2 ? (points.target ?? '') : '', name1: points.dropOff },
    customer: clean({ fio: r.contactName, phone: r.phone.replace(/[^\d+]/g, ''), email: r.email }),
    kurdost:
      o.deliveryType === 1
        ? clean({ index: r.index, citi: r.city, addressp: r.addressString ?? street, delivery_date: o.deliveryDate, timesfrom1: o.deliveryTimeStart, timesto1: o.deliveryTimeEnd, comentk: r.comment })
        : undefined,
    items: order.places.flatMap((p, pi) =>
      p.items.map((item, ii) => clean({
        id: item.articul ?? item.barcode ?? `${pi + 1}-${ii + 1}`,
        name: item.description,
        UnitName: 'шт',
        nds: item.costVat,
        price: rubles(item.cost ?? item.assessedCost),
        quantity: item.quantity,
      })),
    ),
    weights,
    notice: o.comment ?? o.description,
  });
}

// ---------------------------------------------------------------- errors inside 200

/** Boxberry's refusal, wherever it put it: `{ err }`, `{ error: true, message }`, or an array holding one. Null when none. */
export function boxberryError(body: unknown): string | null {
  const one = Array.isArray(body) && body.length === 1 ? body[0] : body;
  if (typeof one !== 'object' || one === null || Array.isArray(one)) return null;
  const b = one as Record<string, unknown>;
  if (typeof b.err === 'string' && b.err.trim()) return b.err.trim();
  if (b.err === true) return typeof b.message === 'string' && b.message ? b.message : 'Boxberry refused the call';
  if (b.error === true || (typeof b.error === 'string' && b.error.trim())) {
    return typeof b.message === 'string' && b.message ? b.message : typeof b.error === 'string' ? b.error : 'Boxberry refused the call';
  }
  return null;
}

/** Refusals that mean the token is wrong (the account cannot be used), not the parcel. */
export const isTokenRefusal = (message: string) => /ключ интеграции|token|токен/i.test(message);
/** Refusals that mean "no such parcel" (a token "not found" is a wrong token, not a missing parcel). */
export const isNotFound = (message: string) => !isTokenRefusal(message) && /не найден|not found|нет посылки|не существует/i.test(message);
/** A second ParselCreate with the same shop number. */
export const isDuplicate = (message: string) => /уже существует|already exists/i.test(message);

const messageFields: [RegExp, string][] = [
  [/пункт.*выдач|код пвз|shop\.name\b/i, 'order.pointOutId'],
  [/пункт.*при[её]м|name1/i, 'order.pointInId'],
  [/адрес|индекс|город/i, 'recipient.addressString'],
  [/телефон/i, 'recipient.phone'],
  [/фио|получател/i, 'recipient.contactName'],
  [/вес|габарит/i, 'places.0.weight'],
  [/наложенн|payment_sum|сумм/i, 'cost.codCost'],
  [/уже существует|already exists/i, 'order.clientNumber'],
];

/** A refusal as the field error the shop sees. */
export function boxberryFieldError(message: string): FieldError {
  return { field: messageFields.find(([re]) => re.test(message))?.[1] ?? 'order', message };
}

// ---------------------------------------------------------------- statuses

const norm = (name: string) => name.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/**
 * Boxberry reports statuses by name (ListStatuses `Name`), not by code: the names of its documentation → our keys.
 * A name not listed keeps the key before it (`unknown` at first); a new one that says "возврат" is a return.
 */
export const boxberryStatusKeys: Record<string, StatusKey> = Object.fromEntries(
  Object.entries({
    'Создан': 'uploaded',
    'Загружен реестр ИМ': 'uploaded',
    'Заказ создан в личном кабинете': 'uploaded',
    'Принято к доставке': 'onPointIn',
    'Принят к доставке': 'onPointIn',
    'Передано на сортировку': 'onWay',
    'Отправлено на сортировочный терминал': 'onWay',
    'В пути': 'onWay',
    'Отправлен в город назначения': 'onWay',
    'Передан на доставку до пункта выдачи': 'onWay',
    'Поступило в город назначения': 'onPointOut',
    'Прибыло в город назначения': 'onPointOut',
    'Передано на курьерскую доставку': 'delivering',
    'Поступило в пункт выдачи': 'readyForRecipient',
    'Готово к выдаче': 'readyForRecipient',
    'Выдано': 'delivered',
    'Частично выдано': 'partialReturn',
    'Возвращено с курьерской доставки': 'returnedFromDelivery',
    'Готовится к возврату': 'returnedFromDelivery',
    'Срок хранения истек': 'returnedFromDelivery',
    'Отправлено в ИМ': 'returning',
    'Возврат в пути': 'returning',
    'Возврат готов к выдаче': 'returnReady',
    'Возвращено в ИМ': 'returned',
    'Возвращено отправителю': 'returned',
    'Заказ отменен': 'deliveryCanceled',
    'Удален': 'deliveryCanceled',
    'Утерян': 'lost',
  } satisfies Record<string, StatusKey>).map(([name, key]) => [norm(name), key]),
);

/** The key of a status name, given the key before it; never throws. */
export function boxberryStatusKey(name: string, previous: StatusKey | null): StatusKey {
  const known = boxberryStatusKeys[norm(name)];
  if (known) return known;
  if (/возврат/i.test(name)) return 'returning';
  return previous ?? 'unknown';
}

/** "2026-03-01T10:15:00" or "01.03.2026 10:15:00", Moscow time (Boxberry gives no zone) → epoch ms; NaN when neither. */
export function boxberryDate(text: string): number {
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text.trim());
  const ru = /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text.trim());
  const [y, mo, d, h, mi, s] = iso ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]] : ru ? [ru[3], ru[2], ru[1], ru[4] ?? '00', ru[5] ?? '00', ru[6]] : [];
  if (!y) return Number.NaN;
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}+03:00`);
}

/** ListStatuses → our history, oldest first; undated ones dropped. */
export function mapBoxberryStatuses(statuses: BoxberryStatus[]): ProviderStatus[] {
  let previous: StatusKey | null = null;
  return statuses
    .map((s, i) => ({ s, i, at: boxberryDate(s.Date) }))
    .filter((x) => !Number.isNaN(x.at))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ s, at }) => {
      const key = boxberryStatusKey(s.Name, previous);
      previous = key;
      return clean({ key, at, providerCode: s.Name, providerName: s.Name, providerDescription: s.Comment || undefined }) as ProviderStatus;
    });
}

/** Statuses after which a parcel is at Boxberry already (a cancel is then a recall, not a deletion). */
export const handedOver = (history: ProviderStatus[]) => history.some((h) => h.key !== 'uploaded' && h.key !== 'unknown');

// ---------------------------------------------------------------- points

const yes = (v: string | boolean | null | undefined) => v === true || (typeof v === 'string' && /^(yes|да|1|true)$/i.test(v.trim()));
const dayIndex: Record<string, number> = { пн: 1, вт: 2, ср: 3, чт: 4, пт: 5, сб: 6, вс: 7 };
const hhmm = (t: string) => {
  const [h, m = '00'] = t.split(/[.:]/);
  return `${h.padStart(2, '0')}:${m.padEnd(2, '0').slice(0, 2)}`;
};

/** "пн-пт:10.00-20.00, сб:10.00-16.00" → hours per ISO weekday; parts it cannot read are left out. */
export function boxberryWorktime(text: string | null | undefined): Worktime {
  const worktime: Partial<Worktime> = {};
  for (const part of (text ?? '').toLowerCase().split(/[,;]/)) {
    const m = /^\s*([а-я]{2})(?:\s*-\s*([а-я]{2}))?\s*:?\s*(\d{1,2}[.:]\d{2})\s*-\s*(\d{1,2}[.:]\d{2})/.exec(part);
    if (!m || !dayIndex[m[1]]) continue;
    const from = dayIndex[m[1]];
    const to = m[2] ? dayIndex[m[2]] : from;
    if (!to || to < from) continue;
    for (let d = from; d <= to; d++) worktime[String(d) as keyof Worktime] = `${hhmm(m[3])}/${hhmm(m[4])}`;
  }
  return worktime as Worktime;
}

/** A ListPoints record → our point; `id` is its row in the points table. */
export function pointFromBoxberry(p: BoxberryPoint, id: number, enabled = true): Point {
  const [lat, lng] = (p.GPS ?? '').split(',').map((v) => Number(v.trim()));
  const prepaidOnly = yes(p.OnlyPrepaidOrders);
  const locker = yes(p.Postamat);
  const kg = p.LoadLimit !== undefined && p.LoadLimit !== null && p.LoadLimit !== '' ? Number(p.LoadLimit) : Number.NaN;
  return {
    id,
    providerKey: BOXBERRY_KEY,
    code: p.Code,
    name: p.Name ?? p.Address ?? p.Code,
    postIndex: p.ZipCode ?? null,
    lat: Number.isFinite(lat) ? lat : null,
    lng: Number.isFinite(lng) ? lng : null,
    countryCode: 'RU',
    region: p.Area ?? null,
    city: p.CityName ?? '',
    community: null,
    street: null,
    house: null,
    block: null,
    office: null,
    address: p.Address ?? '',
    description: p.TripDescription ?? null,
    phone: p.Phone ?? null,
    timetable: p.WorkShedule ?? null,
    worktime: boxberryWorktime(p.WorkShedule),
    fittingRoom: null,
    cod: prepaidOnly ? 0 : 1,
    paymentCash: prepaidOnly ? 0 : 1,
    paymentCard: yes(p.Acquiring) ? 1 : 0,
    availableOperation: p.ReceptionLaP !== undefined && p.ReceptionLaP !== null && !yes(p.ReceptionLaP) ? 2 : 3,
    type: locker ? 2 : 1,
    limits: { maxSizeA: null, maxSizeB: null, maxSizeC: null, maxSizeSum: null, minWeight: null, maxWeight: Number.isFinite(kg) ? Math.round(kg * 1000) : null, maxCod: null },
    enabled: enabled ? 1 : 0,
  };
}

/** DeliveryCosts' price "349.5" or 349.5 → kopecks; NaN when it is not a price. */
export const boxberryKopecks = (value: number | string) => (typeof value === 'number' ? toKopecks(value) : /^\s*\d+([.,]\d+)?\s*$/.test(value) ? toKopecks(Number(value.replace(',', '.'))) : Number.NaN);

// ---------------------------------------------------------------- prices

/** What DeliveryCosts is asked for one tariff: to a point by its code, to the door by the postal index. */
export type BoxberryCostTarget = { target: string } | { zip: string };

/**
 * DeliveryCosts' query for a parcel: weight in grams (all boxes), the declared value and the sum to collect in rubles,
 * and where it goes. The drop-off point is left to Boxberry (the calculator does not know where the shop hands over).
 */
export function boxberryCostsQuery(parcel: { grams: number; assessedKopecks: number; codKopecks: number }, to: BoxberryCostTarget): Record<string, string | number> {
  return { weight: Math.max(1, Math.round(parcel.grams)), ordersum: toRubles(parcel.assessedKopecks), paysum: toRubles(parcel.codKopecks), ...to };
}

/** DeliveryCosts' answer → a quote of the tariff: the whole price as transport, the term as both bounds. NaN price → null. */
export function quoteFromBoxberry(tariff: (typeof boxberryTariffs)[number], costs: { price: number | string; delivery_period?: number | string }) {
  const kopecks = boxberryKopecks(costs.price);
  if (Number.isNaN(kopecks)) return null;
  const days = Number(costs.delivery_period ?? 0);
  const term = Number.isFinite(days) && days > 0 ? Math.round(days) : 0;
  return {
    tariffId: tariff.id,
    tariffProviderId: tariff.vid,
    tariffName: tariff.name,
    pickupType: 2 as const,
    deliveryType: tariff.deliveryType,
    transportKopecks: kopecks,
    insuranceKopecks: 0,
    codFeeKopecks: 0,
    daysMin: term,
    daysMax: term,
  };
}

// ---------------------------------------------------------------- courier intake

/** Boxberry's dates in calls: DD.MM.YYYY. */
const boxberryDay = (isoDate: string) => isoDate.split('-').reverse().join('.');

/**
 * Our courier call → CreateIntake's parameters: where (index, city, street, house, block, office), who (name, phone,
 * email), when (day, from, to), what (boxes, grams) and a comment naming the parcels' tracks.
 */
export function toBoxberryIntake(request: CourierCallRequest): Record<string, string | number> {
  const a = request.address;
  const tracks = request.shipments.map((s) => s.providerNumber);
  const comment = [request.comment, tracks.length ? `Посылки: ${tracks.join(', ')}` : undefined].filter(Boolean).join('. ');
  return clean({
    zip: a.postIndex,
    city: a.city,
    street: a.street ?? a.addressString,
    house: a.house,
    housing: a.block,
    flat: a.office,
    contact_name: request.contactName,
    contact_phone: request.phone.replace(/[^\d+]/g, ''),
    contact_email: request.email,
    take_date: boxberryDay(request.date),
    take_time_from: request.timeStart,
    take_time_to: request.timeEnd,
    seats_count: Math.max(1, request.shipments.length),
    weight: Math.max(1, Math.round(request.weight)),
    comment: comment || undefined,
  }) as Record<string, string | number>;
}

/** The number Boxberry gave the intake, read from its message ("Заявка № 123 создана"); null when it names none. */
export function intakeNumberOf(message: string): string | null {
  return /№\s*(\d+)/.exec(message)?.[1] ?? /\b(\d{4,})\b/.exec(message)?.[1] ?? null;
}
