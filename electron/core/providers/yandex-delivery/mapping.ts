/**
 * Pure mapping between ShipDesk's model and Yandex Delivery's "other day" platform: no I/O, no clock. The adapter
 * (yandex-provider.ts) does the talking; everything it sends or reads passes through here, and each function is
 * tested against the fixtures in ./fixtures.
 */
import type { FieldError } from '../../../../shared/errors';
import { toKopecks } from '../../../../shared/money';
import type { Point, Tariff, Worktime } from '../../../../shared/schemas/lists';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { StatusKey } from '../../../../shared/status-keys';
import { parseTimestamp } from '../../../../shared/time';
import type { CodSplit } from '../cod-split';
import type { ProviderStatus } from '../provider';
import type { YandexError, YandexOffer, YandexPoint, YandexState } from './wire';

export const YANDEX_KEY = 'yandex-delivery';

// ---------------------------------------------------------------- tariffs

/**
 * The platform's two last-mile policies, each from a drop-off point the shop brings the parcel to (pickupType 2,
 * pointInId) or from the shop's own warehouse station Yandex collects from (pickupType 1, the connection's), as our
 * tariffs (ids clear of CDEK's and the sandbox's).
 */
export const yandexTariffs = [
  { id: 9101, name: 'Яндекс Доставка: от пункта приёма до двери', policy: 'time_interval', deliveryType: 1, pickupType: 2 },
  { id: 9102, name: 'Яндекс Доставка: от пункта приёма до пункта выдачи', policy: 'self_pickup', deliveryType: 2, pickupType: 2 },
  { id: 9103, name: 'Яндекс Доставка: со склада до двери', policy: 'time_interval', deliveryType: 1, pickupType: 1 },
  { id: 9104, name: 'Яндекс Доставка: со склада до пункта выдачи', policy: 'self_pickup', deliveryType: 2, pickupType: 1 },
] as const;
export type YandexTariff = (typeof yandexTariffs)[number];
export type YandexPolicy = YandexTariff['policy'];

const policyOf = (deliveryType: 1 | 2): YandexPolicy => (deliveryType === 1 ? 'time_interval' : 'self_pickup');

/** Yandex's tariffs as /lists/tariffs records. */
export function yandexTariffRecords(): Tariff[] {
  return yandexTariffs.map((t) => ({
    id: t.id,
    providerKey: YANDEX_KEY,
    name: t.name,
    description: null,
    aliasName: `yandex-${t.policy}-${t.pickupType === 1 ? 'warehouse' : 'dropoff'}`,
    weightMin: null,
    weightMax: null,
    pickupType: t.pickupType,
    deliveryType: t.deliveryType,
    paymentCash: 1,
  }));
}

export const tariffOf = (id: number) => yandexTariffs.find((t) => t.id === id) ?? null;

// ---------------------------------------------------------------- money and time

/** "259.46 RUB" (the platform's price strings) → kopecks; NaN when it is not one. */
export function kopecksOfPrice(text: string): number {
  const match = /^\s*(-?\d+(?:[.,]\d+)?)\s*(RUB)?\s*$/i.exec(text.replace(/(\d)[\s\u00a0]+(?=\d)/g, '$1'));
  return match ? toKopecks(Number(match[1].replace(',', '.'))) : Number.NaN;
}

/** The platform's time fields: unix seconds, or an ISO string; NaN when neither. */
export function epochMs(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  if (typeof value === 'number') return value * 1000;
  return /^\d+$/.test(value) ? Number(value) * 1000 : parseTimestamp(value);
}

const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as Moscow's calendar date and time (the shop's calendar; the platform speaks UTC). */
export function moscowParts(ms: number): { date: string; time: string } {
  const d = new Date(ms + MOSCOW_OFFSET_MS);
  return { date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` };
}

/** A Moscow date and time → the platform's UTC form `2026-03-02T06:00:00.000000Z`. */
export function utcOfMoscow(date: string, time: string): string {
  return new Date(Date.parse(`${date}T${time}:00+03:00`)).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
}

// ---------------------------------------------------------------- the request body

/** Where the parcel starts and ends at Yandex: platform station ids the adapter resolved. */
export interface YandexStations {
  /** The drop-off point the shop brings it to, or its own warehouse station Yandex collects from. */
  source: string;
  /** The pickup point or locker (deliveryType 2). */
  destination?: string;
}

/** The body of `offers/create` (and `request/create`). */
export interface YandexRequestBody {
  info: { operator_request_id: string; comment?: string };
  source: { platform_station: { platform_id: string } };
  destination:
    | { type: 'platform_station'; platform_station: { platform_id: string } }
    | {
        type: 'custom_location';
        custom_location: { latitude?: number; longitude?: number; details: Record<string, string> };
        interval_utc?: { from: string; to: string };
      };
  items: {
    count: number;
    name: string;
    article: string;
    billing_details: { unit_price: number; assessed_unit_price: number; nds?: number; inn?: string };
    physical_dims?: { dx: number; dy: number; dz: number };
    place_barcode: string;
    marking_code?: string;
  }[];
  places: { physical_dims: { weight_gross: number; dx: number; dy: number; dz: number }; barcode: string }[];
  billing_info: { payment_method: 'already_paid' | 'cash_on_receipt'; delivery_cost?: number };
  recipient_info: { first_name: string; last_name?: string; phone: string; email?: string };
  last_mile_policy: YandexPolicy;
}

const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
const cm = (v: number | undefined, fallback: number) => Math.max(1, Math.ceil(v ?? fallback));
const phone = (p: string) => p.replace(/[\s\-()]/g, '');

/** A place's barcode: its own, else the shop's number and the place's position (unique per order, as Yandex wants). */
export const placeBarcode = (order: OrderCreate, index: number) => order.places[index].barcode ?? `${order.order.clientNumber}-${index + 1}`;

/** "Анна Смирнова" → first and last name (Yandex asks them apart; a single word is a first name). */
export function splitName(full: string): { first_name: string; last_name?: string } {
  const [first, ...rest] = full.trim().split(/\s+/);
  return rest.length ? { first_name: first, last_name: rest.join(' ') } : { first_name: first };
}

function addressDetails(a: OrderCreate['recipient']): Record<string, string> {
  const street = [a.street, a.house && `д. ${a.house}`, a.block && `корп. ${a.block}`, a.office && `кв. ${a.office}`].filter(Boolean).join(', ');
  const full = a.addressString ?? [a.index, a.region, a.city, street].filter(Boolean).join(', ');
  return clean({ full_address: full, postal_code: a.index ?? '', locality: a.city ?? '', street: a.street ?? '', house: a.house ?? '', building: a.block ?? '', apartment: a.office ?? '', comment: a.comment ?? '' });
}

/**
 * Our order → the body of `offers/create`. Money in kopecks (the platform's unit), weights in grams, sizes in cm.
 * With cash on delivery, items carry the cash per unit and billing_info the delivery charge; the split must have been checked.
 */
export function toYandexRequest(order: OrderCreate, stations: YandexStations, split: CodSplit): YandexRequestBody {
  const o = order.order;
  const cod = toKopecks(order.cost.codCost) > 0;
  const single = order.places.length === 1;
  const body: YandexRequestBody = {
    info: clean({ operator_request_id: o.clientNumber, comment: o.comment ?? o.description }),
    source: { platform_station: { platform_id: stations.source } },
    destination:
      o.deliveryType === 2
        ? { type: 'platform_station', platform_station: { platform_id: stations.destination ?? '' } }
        : {
            type: 'custom_location',
            custom_location: clean({ latitude: order.recipient.lat, longitude: order.recipient.lng, details: addressDetails(order.recipient) }),
            ...(o.deliveryDate && o.deliveryTimeStart && o.deliveryTimeEnd
              ? { interval_utc: { from: utcOfMoscow(o.deliveryDate, o.deliveryTimeStart), to: utcOfMoscow(o.deliveryDate, o.deliveryTimeEnd) } }
              : {}),
          },
    items: order.places.flatMap((place, pi) =>
      place.items.map((item, ii) => {
        const price = cod ? split.perUnit[pi][ii] : toKopecks(item.cost ?? item.assessedCost ?? 0);
        const dims = item.length && item.width && item.height ? { dx: cm(item.length, 1), dy: cm(item.width, 1), dz: cm(item.height, 1) } : undefined;
        return clean({
          count: item.quantity,
          name: item.description,
          article: item.articul ?? item.barcode ?? `${pi + 1}-${ii + 1}`,
          billing_details: clean({ unit_price: price, assessed_unit_price: toKopecks(item.assessedCost ?? item.cost ?? 0), nds: item.costVat, inn: item.companyInn }),
          physical_dims: dims,
          place_barcode: placeBarcode(order, pi),
          marking_code: item.markCode,
        });
      }),
    ),
    places: order.places.map((place, pi) => {
      // A box not measured is at least as big as its largest item, and never less than 10 cm a side.
      const largest = (side: 'length' | 'width' | 'height') => Math.max(10, ...place.items.map((i) => i[side] ?? 0));
      return {
        physical_dims: {
          weight_gross: Math.max(1, Math.round(place.weight)),
          dx: cm(place.length ?? (single ? o.length : undefined), largest('length')),
          dy: cm(place.width ?? (single ? o.width : undefined), largest('width')),
          dz: cm(place.height ?? (single ? o.height : undefined), largest('height')),
        },
        barcode: placeBarcode(order, pi),
      };
    }),
    billing_info: cod ? { payment_method: 'cash_on_receipt', delivery_cost: split.deliveryRecipientCost } : { payment_method: 'already_paid' },
    recipient_info: clean({ ...splitName(order.recipient.contactName), phone: phone(order.recipient.phone), email: order.recipient.email }),
    last_mile_policy: policyOf(o.deliveryType),
  };
  return body;
}

/** `request/edit`'s body: the request and what may change on it, the recipient and where the parcel goes. */
export interface YandexEditBody {
  request_id: string;
  recipient_info: YandexRequestBody['recipient_info'];
  destination: YandexRequestBody['destination'];
}

/**
 * A changed order → `request/edit`: the recipient and the destination (a point, or the door with its address and
 * hours) of the request as `offers/create` would send them now. Boxes and items are edited at Yandex by separate,
 * asynchronous calls ShipDesk does not make.
 */
export function toYandexEdit(requestId: string, body: YandexRequestBody): YandexEditBody {
  return { request_id: requestId, recipient_info: body.recipient_info, destination: body.destination };
}

// ---------------------------------------------------------------- offers

/**
 * The offer to confirm: on the order's delivery date when it names one (and inside its hours when it names them),
 * else the earliest. Null when the date asked for has no offer.
 */
export function chooseOffer(offers: YandexOffer[], wanted: { date?: string; from?: string; to?: string }): YandexOffer | null {
  const dated = offers
    .map((offer) => ({ offer, min: epochMs(offer.offer_details.delivery_interval.min), max: epochMs(offer.offer_details.delivery_interval.max) }))
    .filter((o) => !Number.isNaN(o.min))
    .sort((a, b) => a.min - b.min);
  const fits = dated.filter(({ min, max }) => {
    if (!wanted.date) return true;
    const start = moscowParts(min);
    if (start.date !== wanted.date) return false;
    if (wanted.from && start.time < wanted.from) return false;
    if (wanted.to && !Number.isNaN(max) && moscowParts(max).time > wanted.to) return false;
    return true;
  });
  return fits[0]?.offer ?? (wanted.date ? null : (dated[0]?.offer ?? null));
}

// ---------------------------------------------------------------- statuses

/**
 * Every status of the platform's status model (door and pickup-point branches, cancellations, returns) → our key.
 * `null` marks detail statuses that do not move the parcel (a re-planned interval): they keep the key before them.
 */
export const yandexStatusKeys: Record<string, StatusKey | null> = {
  DRAFT: 'uploaded',
  VALIDATING: 'uploaded',
  VALIDATING_ERROR: 'uploadingError',
  CREATED: 'uploaded',
  DELIVERY_PROCESSING_STARTED: 'uploaded',
  DELIVERY_TRACK_RECIEVED: 'uploaded',
  SORTING_CENTER_PROCESSING_STARTED: 'uploaded',
  SORTING_CENTER_TRACK_RECEIVED: 'uploaded',
  SORTING_CENTER_TRACK_LOADED: 'uploaded',
  DELIVERY_LOADED: 'uploaded',
  SORTING_CENTER_LOADED: 'uploaded',
  SORTING_CENTER_AT_START: 'onPointIn',
  SORTING_CENTER_PREPARED: 'onPointIn',
  SORTING_CENTER_TRANSMITTED: 'onWay',
  DELIVERY_TRANSPORTATION: 'onWay',
  DELIVERY_AT_START: 'onPointOut',
  DELIVERY_AT_START_SORT: 'onPointOut',
  DELIVERY_TRANSPORTATION_RECIPIENT: 'delivering',
  DELIVERY_ARRIVED_PICKUP_POINT: 'readyForRecipient',
  DELIVERY_STORAGE_PERIOD_EXTENDED: 'readyForRecipient',
  CONFIRMATION_CODE_RECEIVED: 'readyForRecipient',
  DELIVERY_STORAGE_PERIOD_EXPIRED: 'returnedFromDelivery',
  DELIVERY_ATTEMPT_FAILED: 'problem',
  DELIVERY_UPDATED_BY_SHOP: null,
  DELIVERY_UPDATED_BY_RECIPIENT: null,
  DELIVERY_UPDATED_BY_DELIVERY: null,
  DELIVERY_TRANSMITTED_TO_RECIPIENT: 'delivered',
  DELIVERY_DELIVERED: 'delivered',
  PARTICULARLY_DELIVERED: 'partialReturn',
  FINISHED: 'delivered',
  CANCELLED: 'deliveryCanceled',
  CANCELLED_BY_RECIPIENT: 'deliveryCanceled',
  CANCELLED_USER: 'deliveryCanceled',
  CANCELLED_IN_PLATFORM: 'deliveryCanceled',
  SORTING_CENTER_CANCELLED: 'deliveryCanceled',
  RETURN_PREPARING: 'returnedFromDelivery',
  RETURN_TRANSPORTATION_STARTED: 'returning',
  RETURN_ARRIVED_DELIVERY: 'returning',
  RETURN_TRANSMITTED_FULFILMENT: 'returning',
  RETURN_READY_FOR_PICKUP: 'returnReady',
  RETURN_RETURNED: 'returned',
  SORTING_CENTER_RETURN_PREPARING: 'returning',
  SORTING_CENTER_RETURN_PREPARING_SENDER: 'returning',
  SORTING_CENTER_RETURN_ARRIVED: 'returning',
  SORTING_CENTER_RETURN_TRANSFERRED: 'returning',
  SORTING_CENTER_RETURN_RETURNED: 'returned',
};

/**
 * The key of a status, given the key before it. A status the model does not name never crashes and never claims
 * progress: a new return or cancel status by its prefix, anything else keeps the previous key (`unknown` at first).
 */
export function statusKeyFor(status: string, previous: StatusKey | null): StatusKey {
  const known = yandexStatusKeys[status];
  if (known) return known;
  if (known === undefined) {
    if (status.startsWith('CANCELLED')) return 'deliveryCanceled';
    if (status.includes('RETURN')) return 'returning';
  }
  return previous ?? 'unknown';
}

/** `request/history` (or one `request/info` state) → our history, oldest first; undated states dropped. */
export function mapHistory(states: YandexState[]): ProviderStatus[] {
  const dated = states
    .map((s, i) => ({ s, i, at: s.timestamp !== undefined ? epochMs(s.timestamp) : epochMs(s.timestamp_utc) }))
    .filter((x) => !Number.isNaN(x.at))
    .sort((a, b) => a.at - b.at || a.i - b.i);
  let previous: StatusKey | null = null;
  return dated.map(({ s, at }) => {
    const key = statusKeyFor(s.status, previous);
    previous = key;
    return clean({ key, at, providerCode: s.status, providerName: s.description ?? s.status, providerDescription: s.reason ?? undefined }) as ProviderStatus;
  });
}

/** Statuses from which a cancel is pointless: the parcel is done with or already cancelled. */
export const settledStatuses = new Set(['DELIVERY_DELIVERED', 'DELIVERY_TRANSMITTED_TO_RECIPIENT', 'FINISHED', 'PARTICULARLY_DELIVERED', 'RETURN_RETURNED', 'SORTING_CENTER_RETURN_RETURNED']);
export const isCancelled = (status: string) => yandexStatusKeys[status] === 'deliveryCanceled' || status.startsWith('CANCELLED');

// ---------------------------------------------------------------- errors

/** The platform's refusals whose message names what to fix → our field. */
const messageFields: [RegExp, string][] = [
  [/destination info|parse destination|address/i, 'recipient.addressString'],
  [/station id for point|destination station is disabled/i, 'order.pointOutId'],
  [/payment on delivery|prepaid orders/i, 'cost.codCost'],
  [/dimensions/i, 'places.0'],
  [/fitting/i, 'extraParams'],
  [/already was request with such code/i, 'order.clientNumber'],
  [/no delivery options|no dropoff/i, 'order.tariffId'],
];

/** A refusal as the field error the shop sees. */
export function fieldErrorOf(error: YandexError): FieldError {
  const field = messageFields.find(([re]) => re.test(error.message))?.[1] ?? 'order';
  return { field, message: error.code ? `${error.message} (${error.code})` : error.message };
}

/** "There already was request with such code within this employer, request_id: X" → X, when the message carries it. */
export function duplicateRequestId(error: YandexError): string | null | undefined {
  if (!/already was request with such code/i.test(error.message)) return undefined;
  return /request_id[:\s=]+([\w-]+)/i.exec(error.message)?.[1] ?? null;
}

// ---------------------------------------------------------------- points

const typeOf: Record<string, Point['type']> = { pickup_point: 1, terminal: 2, post_office: 3, sorting_center: 4 };
const hhmm = (t: { hours: number; minutes: number }) => `${pad(t.hours)}:${pad(t.minutes)}`;

/** A point of `pickup-points/list` → our point record; `id` is its row in the points table. */
export function pointFromYandex(p: YandexPoint, id: number, enabled = true): Point {
  const a = p.address;
  const worktime: Partial<Worktime> = {};
  for (const r of p.schedule?.restrictions ?? []) {
    for (const day of r.days) if (day >= 1 && day <= 7) worktime[String(day) as keyof Worktime] = `${hhmm(r.time_from)}/${hhmm(r.time_to)}`;
  }
  const pays = new Set(p.payment_methods ?? []);
  const cash = pays.has('cash_on_receipt');
  const card = pays.has('card_on_receipt');
  const timetable = Object.entries(worktime).map(([d, t]) => `${d}: ${t}`).join('; ');
  return {
    id,
    providerKey: YANDEX_KEY,
    code: p.id,
    name: p.name ?? a.full_address ?? p.id,
    postIndex: a.postal_code ?? null,
    lat: p.position.latitude,
    lng: p.position.longitude,
    countryCode: 'RU',
    region: a.region ?? null,
    city: a.locality ?? '',
    community: a.subRegion ?? null,
    street: a.street ?? null,
    house: a.house ?? null,
    block: a.building ?? a.housing ?? null,
    office: a.apartment ?? null,
    address: a.full_address ?? [a.locality, a.street, a.house].filter(Boolean).join(', '),
    description: p.instruction ?? a.comment ?? null,
    phone: p.contact?.phone ?? null,
    timetable: timetable || null,
    worktime: worktime as Worktime,
    fittingRoom: null,
    cod: cash || card ? 1 : pays.size ? 0 : null,
    paymentCash: pays.size ? (cash ? 1 : 0) : null,
    paymentCard: pays.size ? (card ? 1 : 0) : null,
    availableOperation: p.available_for_dropoff ? 3 : 2,
    type: typeOf[p.type] ?? 1,
    limits: { maxSizeA: null, maxSizeB: null, maxSizeC: null, maxSizeSum: null, minWeight: null, maxWeight: null, maxCod: null },
    enabled: enabled ? 1 : 0,
  };
}

/** Pickup points are listed by coordinate box, not by page: ShipDesk walks Russia in latitude bands, one band a page. */
export const POINT_BANDS = { south: 41, north: 82 } as const;

export function latitudeBand(index: number, width: number): { from: number; to: number; last: boolean } {
  const from = POINT_BANDS.south + index * width;
  const to = Math.min(from + width, POINT_BANDS.north);
  return { from, to, last: to >= POINT_BANDS.north };
}

// ---------------------------------------------------------------- intervals

export interface ToInterval {
  date: string | null;
  from: string;
  to: string;
}

/** `offers/info` intervals (UTC) → our toIntervals on Moscow's calendar; an interval across midnight is left out. */
export function intervalsFromYandex(offers: { from: string | number; to: string | number }[]): ToInterval[] {
  const seen = new Set<string>();
  return offers.flatMap((o) => {
    const from = epochMs(o.from);
    const to = epochMs(o.to);
    if (Number.isNaN(from) || Number.isNaN(to) || to <= from) return [];
    const start = moscowParts(from);
    const end = moscowParts(to);
    if (start.date !== end.date && end.time !== '00:00') return [];
    const interval = { date: start.date, from: start.time, to: end.time === '00:00' ? '24:00' : end.time };
    const key = `${interval.date} ${interval.from}-${interval.to}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [interval];
  });
}
