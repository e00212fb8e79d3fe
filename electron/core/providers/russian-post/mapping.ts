/**
 * Pure mapping between ShipDesk's model and Russian Post's Otpravka API and tracking service: no I/O, no clock.
 * The adapter (russian-post-provider.ts) does the talking; each function is tested against ./fixtures.
 */
import type { FieldError } from '../../../../shared/errors';
import { toKopecks } from '../../../../shared/money';
import type { Point, Tariff, Worktime } from '../../../../shared/schemas/lists';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { StatusKey } from '../../../../shared/status-keys';
import type { ProviderStatus } from '../provider';
import type { PostOperation, PostPoint, PostPositionError } from './wire';

export const RUSSIAN_POST_KEY = 'russian-post';

// ---------------------------------------------------------------- tariffs

/**
 * Russian Post's mail types as our tariffs. The shop hands parcels over at its own post office (pickupType 2, the
 * connection's office). A parcel "to a point" goes to the recipient's post office (POSTAL_PARCEL, called for there)
 * or to an ECOM delivery point or locker (ECOM); "to the door" is a parcel with the courier service.
 */
export const russianPostTariffs = [
  { id: 9301, name: 'Почта России: посылка до отделения', mailType: 'POSTAL_PARCEL', deliveryType: 2, courier: false },
  { id: 9302, name: 'Почта России: посылка курьером до двери', mailType: 'POSTAL_PARCEL', deliveryType: 1, courier: true },
  { id: 9303, name: 'Почта России: ЕКОМ до пункта выдачи', mailType: 'ECOM', deliveryType: 2, courier: false },
] as const;

type PointType = Point['type'];
/** Our point type of a post office (the interface's 3). */
export const POST_OFFICE_TYPE: PointType = 3;

/** The point types a tariff to a point delivers to, where it is not every kind: a parcel "called for" waits at a post office. */
export const russianPostTariffPointTypes: Record<string, PointType[]> = Object.fromEntries(
  russianPostTariffs.filter((t) => t.deliveryType === 2 && t.mailType === 'POSTAL_PARCEL').map((t) => [String(t.id), [POST_OFFICE_TYPE]]),
);
export type RussianPostTariff = (typeof russianPostTariffs)[number];

export const russianPostTariffOf = (id: number): RussianPostTariff | null => russianPostTariffs.find((t) => t.id === id) ?? null;

/** The largest parcel Russian Post takes (POSTAL_PARCEL and ECOM): 20 kg; payment and declared value up to 500,000 ₽. */
export const MAX_MASS_GRAMS = 20_000;
export const MAX_VALUE_KOPECKS = 500_000 * 100;

export function russianPostTariffRecords(): Tariff[] {
  return russianPostTariffs.map((t) => ({
    id: t.id,
    providerKey: RUSSIAN_POST_KEY,
    name: t.name,
    description: null,
    aliasName: `russian-post-${t.mailType.toLowerCase()}${t.courier ? '-courier' : ''}`,
    weightMin: null,
    weightMax: MAX_MASS_GRAMS,
    pickupType: 2,
    deliveryType: t.deliveryType,
    paymentCash: 1,
  }));
}

// ---------------------------------------------------------------- the order

/** Where the parcel goes, resolved by the adapter from the stored points: the recipient's office or delivery point. */
export interface PostDestination {
  /** The point's postal index (its code), for deliveries to a point. */
  pointIndex?: string;
  pointCity?: string;
  pointRegion?: string | null;
}

/** An order of PUT /1.0/user/backlog, kebab-case as the service names its fields. Money in kopecks, mass in grams. */
export type PostOrderRequest = Record<string, unknown>;

const clean = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as T;

/** "Пётр Иванович Сидоров" → surname / given name / middle name as the service wants them (surname first is the Russian order). */
export function splitName(full: string): { surname: string; 'given-name': string; 'middle-name'?: string } {
  const parts = full.trim().split(/\s+/);
  if (parts.length >= 3) return { surname: parts[0], 'given-name': parts[1], 'middle-name': parts.slice(2).join(' ') };
  if (parts.length === 2) return { surname: parts[1], 'given-name': parts[0] };
  return { surname: parts[0] ?? '', 'given-name': parts[0] ?? '' };
}

/** The mail category the order's money asks for: COD needs a declared value at least as large. */
export function mailCategoryOf(order: OrderCreate): string {
  const cod = toKopecks(order.cost.codCost);
  const declared = toKopecks(order.cost.assessedCost);
  if (cod > 0) return 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY';
  if (declared > 0) return 'WITH_DECLARED_VALUE';
  return 'ORDINARY';
}

/** What ShipDesk can tell without calling Russian Post: the tariff, the weight, the money, an index for the door. */
export function russianPostOrderErrors(order: OrderCreate): FieldError[] {
  const errors: FieldError[] = [];
  const o = order.order;
  const tariff = russianPostTariffOf(o.tariffId);
  if (!tariff) errors.push({ field: 'order.tariffId', message: `is not a Russian Post tariff (${russianPostTariffs.map((t) => `${t.id} ${t.name}`).join(', ')})` });
  else if (tariff.deliveryType !== o.deliveryType) errors.push({ field: 'order.deliveryType', message: `Russian Post tariff ${tariff.id} (${tariff.name}) expects deliveryType ${tariff.deliveryType}` });
  if (o.pickupType !== 2) errors.push({ field: 'order.pickupType', message: 'Russian Post takes parcels at the post office: pickupType 2' });
  if (order.places.length > 1) errors.push({ field: 'places', message: 'Russian Post takes one box a parcel: send the boxes as separate orders' });
  const mass = order.places.reduce((s, p) => s + p.weight, 0);
  if (mass > MAX_MASS_GRAMS) errors.push({ field: 'places.0.weight', message: `Russian Post takes parcels up to ${MAX_MASS_GRAMS / 1000} kg` });
  const cod = toKopecks(order.cost.codCost);
  const declared = toKopecks(order.cost.assessedCost);
  if (cod > 0 && declared < cod) errors.push({ field: 'cost.assessedCost', message: 'must be at least the cash on delivery for Russian Post (the declared value covers the money to collect)' });
  if (declared > MAX_VALUE_KOPECKS) errors.push({ field: 'cost.assessedCost', message: 'Russian Post declares at most 500 000 ₽ a parcel' });
  if (o.deliveryType === 1) {
    if (!order.recipient.index || !/^\d{6}$/.test(order.recipient.index)) errors.push({ field: 'recipient.index', message: 'Russian Post needs the recipient\'s six-digit postal index for a delivery to the door' });
    if (!order.recipient.street && !order.recipient.addressString) errors.push({ field: 'recipient.street', message: 'Russian Post needs the street (or an address line) for a delivery to the door' });
  }
  return errors;
}

const digits = (phone: string) => {
  const d = phone.replace(/\D/g, '');
  return d.length === 10 ? `7${d}` : d.length === 11 && d.startsWith('8') ? `7${d.slice(1)}` : d;
};

/**
 * Our order → one order of PUT /1.0/user/backlog. `postofficeCode` is the shop's office (where it hands parcels
 * over); a point delivery goes to the point's index, "called for" (DEMAND) at a post office, or as ECOM's
 * delivery-point-index; a door delivery to the recipient's address with the courier service.
 */
export function toPostOrder(order: OrderCreate, postofficeCode: string, destination: PostDestination): PostOrderRequest {
  const o = order.order;
  const r = order.recipient;
  const tariff = russianPostTariffOf(o.tariffId) ?? russianPostTariffs[0];
  const place = order.places[0];
  const category = mailCategoryOf(order);
  const length = place?.length ?? o.length;
  const width = place?.width ?? o.width;
  const height = place?.height ?? o.height;
  const toPoint = tariff.deliveryType === 2;
  const address = toPoint
    ? { 'address-type-to': tariff.mailType === 'ECOM' ? 'DEFAULT' : 'DEMAND', 'index-to': Number(destination.pointIndex), 'place-to': destination.pointCity ?? r.city, 'region-to': destination.pointRegion ?? r.region ?? r.city }
    : {
        'address-type-to': 'DEFAULT',
        'index-to': Number(r.index),
        'place-to': r.city,
        'region-to': r.region ?? r.city,
        'street-to': r.street ?? r.addressString,
        'house-to': r.house,
        corpus: r.block,
        'room-to': r.office,
      };
  return clean({
    'order-num': o.clientNumber,
    'mail-type': tariff.mailType,
    'mail-category': category,
    'mail-direct': 643,
    'postoffice-code': postofficeCode,
    mass: Math.max(1, Math.round(order.places.reduce((s, p) => s + p.weight, 0))),
    dimension: length && width && height ? { length: Math.ceil(length), width: Math.ceil(width), height: Math.ceil(height) } : undefined,
    ...splitName(r.contactName),
    'recipient-name': r.companyName ?? r.contactName,
    'tel-address': Number(digits(r.phone)),
    ...address,
    courier: tariff.courier || undefined,
    'ecom-data': tariff.mailType === 'ECOM' ? { 'delivery-point-index': destination.pointIndex } : undefined,
    'insr-value': category === 'ORDINARY' ? undefined : toKopecks(order.cost.assessedCost),
    payment: category === 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY' ? toKopecks(order.cost.codCost) : undefined,
    comment: o.comment ?? o.description,
    'sms-notice-recipient': 1,
    items: order.places.flatMap((p) =>
      p.items.map((item) => clean({
        description: item.description,
        quantity: item.quantity,
        value: toKopecks(item.cost ?? item.assessedCost ?? 0),
        'insr-value': category === 'ORDINARY' ? undefined : toKopecks(item.assessedCost ?? item.cost ?? 0),
        'vat-rate': item.costVat,
        'item-number': item.articul,
        'goods-type': 'GOODS',
      })),
    ),
  });
}

// ---------------------------------------------------------------- refusals

/** One refusal, flattened: its code and the service's words. */
export interface PostRefusal {
  code: string;
  description: string;
}

/** The refusals of one position (order, id) of a batch call, in either of the service's two forms. */
export function refusalsOf(error: PostPositionError): PostRefusal[] {
  const codes = error['error-codes'] ?? [];
  if (codes.length) return codes.map((c) => ({ code: c.code, description: [c.description, c.details].filter(Boolean).join(': ') || c.code }));
  return error['error-code'] ? [{ code: error['error-code'], description: error['error-code'] }] : [];
}

/**
 * The service's refusal of a whole call when it put one in the body: `{ code, sub-code, desc }` (non-2xx),
 * `{ error, status }` (400), `{ status: "ERROR", message }`, or a lone `{ error-code }` inside HTTP 200. Null when none.
 */
export function callRefusal(body: unknown): PostRefusal | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  if (str(b['sub-code']) || (str(b.code) && str(b.desc))) return { code: str(b['sub-code']) ?? str(b.code) ?? 'ERROR', description: str(b.desc) ?? str(b['sub-code']) ?? 'Russian Post refused the call' };
  if (str(b.error)) return { code: str(b.status) ?? 'ERROR', description: str(b.error)! };
  if (b.status === 'ERROR') return { code: 'ERROR', description: str(b.message) ?? 'Russian Post refused the call' };
  if (str(b['error-code']) && !Array.isArray(b.errors)) return { code: str(b['error-code'])!, description: str(b['error-code'])! };
  return null;
}

/** Codes that mean the account cannot be used (wrong token or user key), not the order. */
export const isAuthRefusal = (code: string, httpStatus: number) => httpStatus === 401 || httpStatus === 403 || /^(UNAUTHORIZED|AUTH|ACCESS_DENIED|INVALID_TOKEN)/i.test(code);

const codeFields: [RegExp, string][] = [
  [/INDEX_TO/, 'recipient.index'],
  [/DELIVERY_POINT|ECOM/, 'order.pointOutId'],
  [/TEL/, 'recipient.phone'],
  [/PLACE_TO|REGION_TO|STREET_TO|HOUSE_TO|ROOM_TO|ADDRESS/, 'recipient.street'],
  [/MASS|WEIGHT/, 'places.0.weight'],
  [/DIMENSION/, 'order.length'],
  [/REC_NAME|RECIPIENT_NAME|GIVEN_NAME|SURNAME|MIDDLE_NAME/, 'recipient.contactName'],
  [/PAYMENT|COD/, 'cost.codCost'],
  [/INSR/, 'cost.assessedCost'],
  [/MAIL_TYPE|MAIL_CATEGORY|MAIL_DIRECT/, 'order.tariffId'],
  [/ORDER_NUM/, 'order.clientNumber'],
];

/** A refusal as the field error the shop sees. */
export function postFieldError(refusal: PostRefusal): FieldError {
  return { field: codeFields.find(([re]) => re.test(refusal.code))?.[1] ?? 'order', message: `${refusal.description} (${refusal.code})` };
}

/** Refusals that mean "no such order or batch". */
export const isNotFound = (code: string, httpStatus: number) => httpStatus === 404 || /NOT_FOUND/i.test(code);

// ---------------------------------------------------------------- statuses

type Rule = StatusKey | ((attribute: number) => StatusKey | null) | null;
const toRecipient = new Set([1, 3, 5, 6, 8, 10, 11, 12, 13]);

/** Processing (type 8) attributes: where the parcel is. */
const processing: Record<number, StatusKey> = {
  0: 'onWay', 1: 'onWay', 2: 'readyForRecipient', 3: 'onWay', 4: 'onWay', 5: 'onWay', 6: 'onWay', 7: 'onWay', 8: 'onWay', 9: 'readyForRecipient',
  10: 'readyForRecipient', 11: 'onWay', 12: 'returnedFromDelivery', 13: 'onWay', 14: 'onPointOut', 15: 'delivering', 16: 'readyForRecipient',
  17: 'onPointOut', 18: 'delivering', 19: 'readyForRecipient', 20: 'returning', 21: 'problem', 22: 'onPointOut', 23: 'readyForRecipient',
  24: 'readyForRecipient', 25: 'readyForRecipient', 26: 'onWay', 27: 'readyForRecipient', 28: 'readyForRecipient', 29: 'problem', 30: 'onPointOut',
  31: 'onWay', 32: 'delivering', 33: 'readyForRecipient', 34: 'onWay', 35: 'readyForRecipient',
};

/**
 * Russian Post's operation types (the tracking service's OperTypeID, with the attribute where it decides) → our keys;
 * null keeps the key before it (a notice loaded, a payment kind clarified). The list of types is the service's
 * documented one (lapaygroup/RussianPost's StatusList has the same): 1–42.
 */
export const postOperationRules: Record<number, Rule> = {
  1: 'onPointIn', // Приём
  2: (a) => (a === 0 || toRecipient.has(a) ? 'delivered' : 'returned'), // Вручение (адресату / отправителю)
  3: 'returning', // Возврат
  4: 'onWay', // Досылка почты
  5: (a) => (a === 1 ? 'lost' : 'problem'), // Невручение (утрачено, изъято, засылка…)
  6: 'readyForRecipient', // Хранение
  7: 'problem', // Временное хранение
  8: (a) => processing[a] ?? 'onWay', // Обработка
  9: 'onWay', 10: 'onWay', 11: 'onWay', // Импорт, экспорт, приём на таможню
  12: 'returnedFromDelivery', // Неудачная попытка вручения
  13: 'onWay', 14: 'onWay', // Регистрация отправки, таможенное оформление
  15: 'problem', // Передача на временное хранение
  16: 'lost', 17: 'lost', 18: 'lost', // Уничтожение, передача вложения на баланс, регистрация утраты
  19: 'onWay', // Таможенные платежи поступили
  20: 'uploaded', // Регистрация
  21: 'delivered', // Доставка (в почтовый ящик, в руки)
  22: 'returnedFromDelivery', // Недоставка
  23: 'problem', // Поступление на временное хранение
  24: 'onWay', // Продление срока выпуска таможней
  25: 'problem', // Вскрытие
  26: 'deliveryCanceled', // Отмена
  27: 'uploaded', 28: 'uploaded', // Получена электронная регистрация, присвоение идентификатора
  29: 'onWay', 30: 'onWay', 31: 'onWay', 32: 'onWay', 33: 'onWay', // ММПО, SRM, перевозчик, АПО, международная обработка
  34: null, // Электронное уведомление загружено
  35: 'problem', // Отказ в курьерской доставке
  36: null, // Уточнение вида оплаты доставки
  37: 'uploaded', // Предварительное оформление
  38: 'problem', // Задержка для уточнений у отправителя
  39: 'onWay', 40: 'onWay', 41: 'onWay', // Таможенное декларирование, контроль, платежи
  42: 'returnedFromDelivery', // Вторая неудачная попытка вручения
};

const onTheWayBack = new Set<StatusKey>(['returning', 'returnReady']);

/** The key of one operation given the key before it; an undocumented type keeps the previous key (`unknown` at first). Never throws. */
export function postStatusKey(type: number, attribute: number, previous: StatusKey | null): StatusKey {
  const rule = postOperationRules[type];
  const key = typeof rule === 'function' ? rule(attribute) : rule;
  if (!key) return previous ?? 'unknown';
  // Once on its way back, moving and arriving is the return's progress, not the delivery's.
  if (previous && onTheWayBack.has(previous)) {
    if (key === 'readyForRecipient' || key === 'onPointOut') return 'returnReady';
    if (key === 'onWay' || key === 'onPointIn' || key === 'delivering') return 'returning';
  }
  return key;
}

/** Operations → our history, oldest first. */
export function mapPostOperations(operations: PostOperation[]): ProviderStatus[] {
  let previous: StatusKey | null = null;
  return [...operations]
    .map((op, i) => ({ op, i }))
    .filter(({ op }) => Number.isFinite(op.at))
    .sort((a, b) => a.op.at - b.op.at || a.i - b.i)
    .map(({ op }) => {
      const key = postStatusKey(op.type, op.attribute, previous);
      previous = key;
      const name = [op.typeName, op.attributeName].filter(Boolean).join(': ');
      return clean({ key, at: op.at, providerCode: `${op.type}.${op.attribute}`, providerName: name || undefined, providerDescription: [op.index, op.place].filter(Boolean).join(' ') || undefined }) as ProviderStatus;
    });
}

/** "2026-03-01T10:15:00.000+03:00" (single tracking) or "01.03.2026 10:15:00" (batch tickets, Moscow time) → epoch ms; NaN when neither. */
export function postDate(text: string): number {
  const t = text.trim();
  const ru = /^(\d{2})\.(\d{2})\.(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (ru) return Date.parse(`${ru[3]}-${ru[2]}-${ru[1]}T${ru[4] ?? '00'}:${ru[5] ?? '00'}:${ru[6] ?? '00'}+03:00`);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(t)) return Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(t) ? t : `${t}+03:00`);
  return Number.NaN;
}

/** A ШПИ: 14 digits for mail inside Russia (13 characters for international). */
export const isBarcode = (value: string | null | undefined): value is string => !!value && /^(\d{14}|[A-Z]{2}\d{9}[A-Z]{2})$/.test(value);

// ---------------------------------------------------------------- points

const dayIndex: Record<string, number> = { пн: 1, вт: 2, ср: 3, чт: 4, пт: 5, сб: 6, вс: 7 };

/** ["пн, 08:00-20:00", "вс, выходной"] → hours per ISO weekday; days it cannot read are left out. */
export function postWorktime(lines: readonly string[] | null | undefined): Worktime {
  const worktime: Partial<Worktime> = {};
  for (const line of lines ?? []) {
    const m = /^\s*([а-я]{2})\s*[,:]?\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})/i.exec(line);
    const day = m && dayIndex[m[1].toLowerCase()];
    if (!m || !day) continue;
    worktime[String(day) as keyof Worktime] = `${m[2].padStart(2, '0')}:${m[3]}/${m[4].padStart(2, '0')}:${m[5]}`;
  }
  return worktime as Worktime;
}

const coordinate = (v: number | string | null | undefined) => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** Lockers (АПС) are type 2 in our lists, post offices (ОПС) type 3, other delivery points type 1. */
export const isLocker = (type: string | null | undefined) => !!type && /LOCKER|POSTAMAT|АПС|ПОЧТОМАТ/i.test(type);
/** Post offices: the only points a POSTAL_PARCEL "called for" goes to. */
export const isPostOffice = (type: string | null | undefined) => !type || /OFFICE|ОПС/i.test(type);

/** A delivery point → our point; `id` is its row in the points table. Parcels are handed in at post offices only. */
export function pointFromPost(p: PostPoint, id: number): Point {
  const a = p.address ?? {};
  const kg = p['weight-limit'] !== undefined && p['weight-limit'] !== null ? Number(p['weight-limit']) : Number.NaN;
  const street = [a.street, a.house && `д. ${a.house}`].filter(Boolean).join(', ');
  return {
    id,
    providerKey: RUSSIAN_POST_KEY,
    code: p['delivery-point-index'],
    name: `${isLocker(p['delivery-point-type']) ? 'Почтомат' : isPostOffice(p['delivery-point-type']) ? 'Отделение' : 'Пункт выдачи'} ${p['delivery-point-index']}`,
    postIndex: p['delivery-point-index'],
    lat: coordinate(p.latitude),
    lng: coordinate(p.longitude),
    countryCode: 'RU',
    region: a.region ?? null,
    city: a.place ?? '',
    community: null,
    street: a.street ?? null,
    house: a.house ?? null,
    block: null,
    office: null,
    address: [a.index ?? p['delivery-point-index'], a.place, street].filter(Boolean).join(', '),
    description: p.getto ?? null,
    phone: null,
    timetable: (p['work-time'] ?? []).join('; ') || null,
    worktime: postWorktime(p['work-time']),
    fittingRoom: null,
    cod: p['cash-payment'] === false && p['card-payment'] === false ? 0 : 1,
    paymentCash: p['cash-payment'] === false ? 0 : 1,
    paymentCard: p['card-payment'] ? 1 : 0,
    availableOperation: isPostOffice(p['delivery-point-type']) ? 3 : 1,
    type: isLocker(p['delivery-point-type']) ? 2 : isPostOffice(p['delivery-point-type']) ? POST_OFFICE_TYPE : 1,
    limits: { maxSizeA: null, maxSizeB: null, maxSizeC: null, maxSizeSum: null, minWeight: null, maxWeight: Number.isFinite(kg) ? Math.round(kg * 1000) : null, maxCod: null },
    enabled: p.closed || p.temporary_closed ? 0 : 1,
  };
}

// ---------------------------------------------------------------- prices

/**
 * The head post office of each city the calculator knows: the tariff call needs an index, the calculator gives a
 * city. Public facts (the cities' 0-ending main indexes); a city not listed gets no Russian Post price.
 */
export const cityIndexes: Record<string, string> = {
  'москва': '101000', 'санкт-петербург': '190000', 'новосибирск': '630000', 'екатеринбург': '620000', 'казань': '420000', 'нижний новгород': '603000',
  'челябинск': '454000', 'самара': '443000', 'омск': '644000', 'ростов-на-дону': '344000', 'уфа': '450000', 'красноярск': '660000', 'воронеж': '394000',
  'пермь': '614000', 'волгоград': '400000', 'краснодар': '350000', 'саратов': '410000', 'тюмень': '625000', 'ижевск': '426000', 'барнаул': '656000',
  'иркутск': '664000', 'хабаровск': '680000', 'владивосток': '690000', 'ярославль': '150000', 'тверь': '170000', 'тула': '300000', 'калининград': '236000',
  'сочи': '354000', 'мурманск': '183000', 'архангельск': '163000', 'якутск': '677000',
};

export const indexOfCity = (city: string | null | undefined) => (city ? (cityIndexes[city.toLowerCase().replace(/ё/g, 'е').replace(/^\s*(г\.|город)\s*/, '').trim()] ?? null) : null);

/** The body of POST /1.0/tariff for one tariff and parcel. */
export function tariffRequest(tariff: RussianPostTariff, from: string, to: string, parcel: { massGrams: number; declaredKopecks: number; codKopecks: number; dimension?: { length: number; width: number; height: number } }) {
  const category = parcel.codKopecks > 0 ? 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY' : parcel.declaredKopecks > 0 ? 'WITH_DECLARED_VALUE' : 'ORDINARY';
  return clean({
    'index-from': from,
    'index-to': to,
    'mail-category': category,
    'mail-type': tariff.mailType,
    mass: Math.max(1, Math.round(parcel.massGrams)),
    dimension: parcel.dimension,
    fragile: false,
    courier: tariff.courier || undefined,
    'declared-value': category === 'ORDINARY' ? undefined : Math.max(parcel.declaredKopecks, parcel.codKopecks),
  });
}
