/**
 * Pure mapping between ShipDesk's model and CDEK API v2 (shared/reference/cdek-v2.md): no I/O, no clock.
 * The adapter (cdek-provider.ts) does the talking; everything it sends or reads passes through here,
 * and each function is tested against the fixtures in ./fixtures.
 */
import type { FieldError } from '../../../../shared/errors';
import type { Point, Tariff, Worktime } from '../../../../shared/schemas/lists';
import { toKopecks, toRubles } from '../../../../shared/money';
import type { Address, OrderCreate } from '../../../../shared/schemas/order';
import type { StatusKey } from '../../../../shared/status-keys';
import { parseTimestamp } from '../../../../shared/time';
import { splitCod as splitCodFor, type CodSplit } from '../cod-split';
import type { ProviderStatus, Registration } from '../provider';
import type {
  CdekErrorEntry, CdekIntervals, CdekLocation, CdekOffice, CdekOrderBody, CdekOrderResponse, CdekStatus, CdekTariffList,
} from './wire';

export const CDEK_KEY = 'cdek';

// ---------------------------------------------------------------- tariffs and delivery modes

/** CDEK's delivery_mode → our pickupType (1 door, 2 warehouse) and deliveryType (1 door, 2 point). */
export const deliveryModes: Record<number, { pickupType: 1 | 2; deliveryType: 1 | 2; postamat: boolean }> = {
  1: { pickupType: 1, deliveryType: 1, postamat: false }, // door → door
  2: { pickupType: 1, deliveryType: 2, postamat: false }, // door → office
  3: { pickupType: 2, deliveryType: 1, postamat: false }, // office → door
  4: { pickupType: 2, deliveryType: 2, postamat: false }, // office → office
  6: { pickupType: 1, deliveryType: 2, postamat: true }, // door → postamat
  7: { pickupType: 2, deliveryType: 2, postamat: true }, // office → postamat
};

/** The parcel («Посылка») tariffs named in the reference, with their delivery mode. */
export const cdekParcelTariffs = [
  { code: 136, name: 'Посылка склад-склад', mode: 4 },
  { code: 137, name: 'Посылка склад-дверь', mode: 3 },
  { code: 138, name: 'Посылка дверь-склад', mode: 2 },
  { code: 139, name: 'Посылка дверь-дверь', mode: 1 },
  { code: 366, name: 'Посылка дверь-постамат', mode: 6 },
  { code: 368, name: 'Посылка склад-постамат', mode: 7 },
] as const;

/** The parcel tariff of a code, if it is one. */
export const parcelTariff = (code: number) => cdekParcelTariffs.find((t) => t.code === code);

/** CDEK's parcel tariffs as /lists/tariffs records. Weight bounds are not in the reference: null. */
export function cdekTariffRecords(): Tariff[] {
  return cdekParcelTariffs.map((t) => ({
    id: t.code,
    providerKey: CDEK_KEY,
    name: t.name,
    description: deliveryModes[t.mode].postamat ? 'Доставка в постамат СДЭК' : null,
    aliasName: `cdek-${t.code}`,
    weightMin: null,
    weightMax: null,
    pickupType: deliveryModes[t.mode].pickupType,
    deliveryType: deliveryModes[t.mode].deliveryType,
    paymentCash: 1,
  }));
}

/** A tariff of the calculator's answer (wire conventions, "T"). Money in rubles. */
export interface CalculatorTariff {
  tariffId: number;
  tariffProviderId: string;
  tariffName: string;
  pickupTypes: number[];
  deliveryTypes: number[];
  deliveryCost: number;
  deliveryCostOriginal: number;
  daysMin: number | null;
  daysMax: number | null;
}

/** `POST /v2/calculator/tarifflist` answer → calculator tariffs; modes ShipDesk cannot place are left out. */
export function tariffsFromTariffList(list: CdekTariffList): CalculatorTariff[] {
  return list.tariff_codes.flatMap((t) => {
    const mode = deliveryModes[t.delivery_mode];
    if (!mode) return [];
    const cost = toRubles(toKopecks(t.delivery_sum));
    return [{
      tariffId: t.tariff_code,
      tariffProviderId: String(t.tariff_code),
      tariffName: t.tariff_name,
      pickupTypes: [mode.pickupType],
      deliveryTypes: [mode.deliveryType],
      deliveryCost: cost,
      deliveryCostOriginal: cost,
      daysMin: t.period_min ?? null,
      daysMax: t.period_max ?? null,
    }];
  });
}

// ---------------------------------------------------------------- locations and dates

/** An address of the calculator or intervals request (wire conventions). */
export interface CalcAddress {
  countryCode?: string;
  index?: string;
  addressString?: string;
  region?: string;
  city?: string;
  /** CDEK's city code, when the caller knows it. */
  cityCode?: number;
}

const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

/** A calculator address → a CDEK `location`. */
export function toCdekLocation(a: CalcAddress): CdekLocation {
  return clean({ code: a.cityCode, country_code: a.countryCode, postal_code: a.index, region: a.region, city: a.city, address: a.addressString });
}

/** Street, house, block, flat in the Russian order CDEK's address recognition expects. */
export function addressLine(a: Address, unit: 'кв.' | 'оф.'): string | undefined {
  if (a.addressString) return a.addressString;
  const parts = [a.street, a.house && `д. ${a.house}`, a.block && `корп. ${a.block}`, a.office && `${unit} ${a.office}`].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

function addressLocation(a: Address, unit: 'кв.' | 'оф.'): CdekLocation {
  return clean({ country_code: a.countryCode, postal_code: a.index, region: a.region, city: a.city, address: addressLine(a, unit) });
}

/** CDEK dates look like `2023-11-28T07:44:45+0000`; NaN when it is not a date. */
export const parseCdekDate = (text: string): number => parseTimestamp(text);

const pad = (n: number) => String(n).padStart(2, '0');
/** Epoch ms → CDEK's form, in UTC: `2026-03-01T07:00:00+0000`. */
export function formatCdekDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+0000`;
}

// ---------------------------------------------------------------- the order body

const phone = (p: string) => ({ number: p.replace(/[\s\-()]/g, '') });

export type { CodSplit };

/** CDEK collects `payment.value × amount` per item plus `delivery_recipient_cost`; our codCost is that whole sum. */
export const splitCod = (order: OrderCreate) => splitCodFor(order, 'CDEK');

/** Office codes the adapter looked up for pointInId / pointOutId. */
export interface ResolvedPoints {
  shipmentPoint?: string;
  deliveryPoint?: string;
}

/** extraParams → CDEK additional services: the name is the service code; true adds it, false leaves it out, a value is its parameter. */
export function servicesFrom(extra: OrderCreate['extraParams']): CdekOrderBody['services'] {
  const services: NonNullable<CdekOrderBody['services']> = [];
  for (const [code, value] of Object.entries(extra ?? {})) {
    if (value === false || value === 0 || value === '' || value === 'false' || value === '0') continue;
    services.push(value === true || value === 'true' || value === 1 || value === '1' ? { code } : { code, parameter: String(value) });
  }
  return services.length ? services : undefined;
}

/** Our order → the body of `POST /v2/orders` (type 1, online shop). The COD split must have been checked. */
export function toCdekOrder(order: OrderCreate, points: ResolvedPoints, split: CodSplit): CdekOrderBody {
  const o = order.order;
  const singlePlace = order.places.length === 1;
  const body: CdekOrderBody = {
    type: 1,
    number: o.clientNumber,
    tariff_code: o.tariffId,
    comment: o.comment,
    recipient: clean({
      name: order.recipient.contactName,
      company: order.recipient.companyName,
      email: order.recipient.email,
      phones: [phone(order.recipient.phone)],
    }),
    sender: clean({
      company: order.sender.companyName,
      name: order.sender.contactName,
      email: order.sender.email,
      phones: [phone(order.sender.phone)],
    }),
    delivery_recipient_cost: { value: toRubles(split.deliveryRecipientCost) },
    services: servicesFrom(order.extraParams),
    packages: order.places.map((place, pi) => {
      const units = place.items.reduce((s, i) => s + i.quantity, 0);
      const size = (own: number | undefined, whole: number | undefined) => {
        const v = own ?? (singlePlace ? whole : undefined);
        return v === undefined ? undefined : Math.max(1, Math.ceil(v));
      };
      return clean({
        number: place.placeNumber ?? place.barcode ?? String(pi + 1),
        weight: Math.max(1, Math.round(place.weight)),
        length: size(place.length, o.length),
        width: size(place.width, o.width),
        height: size(place.height, o.height),
        items: place.items.map((item, ii) => ({
          name: item.description,
          ware_key: item.articul ?? item.barcode ?? `${pi + 1}-${ii + 1}`,
          payment: { value: toRubles(split.perUnit[pi][ii]) },
          cost: item.assessedCost ?? item.cost ?? 0,
          weight: Math.max(1, Math.round(item.weight ?? place.weight / Math.max(units, 1))),
          amount: item.quantity,
        })),
      });
    }),
  };
  if (o.pickupType === 2) body.shipment_point = points.shipmentPoint;
  else body.from_location = addressLocation(order.sender, 'оф.');
  if (o.deliveryType === 2) body.delivery_point = points.deliveryPoint;
  else body.to_location = addressLocation(order.recipient, 'кв.');
  return clean(body);
}

/** The body of `PATCH /v2/orders`: what may change, addressed by the CDEK number (type and number stay). */
export function toCdekOrderUpdate(order: OrderCreate, points: ResolvedPoints, split: CodSplit, cdekNumber: string): Omit<CdekOrderBody, 'type' | 'number'> & { cdek_number: string } {
  const { type: _type, number: _number, ...rest } = toCdekOrder(order, points, split);
  return { cdek_number: cdekNumber, ...rest };
}

// ---------------------------------------------------------------- order state and statuses

/** Where an asynchronous create stands. */
export type CreateOutcome =
  | { state: 'accepted'; uuid: string }
  | { state: 'successful'; uuid: string; registration: Registration | null }
  | { state: 'invalid'; uuid: string | null; errors: CdekErrorEntry[] };

/** Reads a `GET /v2/orders/{uuid}` (or the create's 202) answer: ACCEPTED, SUCCESSFUL (with cdek_number once assigned) or INVALID. */
export function createOutcome(response: CdekOrderResponse): CreateOutcome {
  const uuid = response.entity?.uuid ?? null;
  const create = response.requests.filter((r) => r.type === undefined || r.type === 'CREATE');
  const invalid = create.find((r) => r.state === 'INVALID');
  const codes = (response.entity?.statuses ?? []).filter((s) => !s.deleted).map((s) => s.code);
  if (invalid || codes.includes('INVALID')) {
    return { state: 'invalid', uuid, errors: invalid?.errors.length ? invalid.errors : [{ code: 'INVALID', message: 'CDEK did not accept the order' }] };
  }
  if (!uuid) return { state: 'invalid', uuid, errors: [{ code: 'INVALID', message: 'CDEK answered without an order' }] };
  const done = create.some((r) => r.state === 'SUCCESSFUL') || codes.some((c) => c !== 'ACCEPTED');
  if (!done) return { state: 'accepted', uuid };
  const cdekNumber = response.entity?.cdek_number;
  return { state: 'successful', uuid, registration: cdekNumber ? { providerNumber: String(cdekNumber), additionalProviderNumber: uuid, barcode: String(cdekNumber) } : null };
}

/** The latest status of an order (deleted ones skipped), or null. */
export function latestStatus(statuses: CdekStatus[]): CdekStatus | null {
  return sortStatuses(statuses).at(-1) ?? null;
}

/** The latest status code of an order (deleted ones skipped), or null. */
export function currentStatusCode(statuses: CdekStatus[]): string | null {
  return latestStatus(statuses)?.code ?? null;
}

function sortStatuses(statuses: CdekStatus[]): CdekStatus[] {
  return statuses
    .filter((s) => !s.deleted)
    .map((s, i) => ({ s, i, at: parseCdekDate(s.date_time) }))
    .sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? 0 : a.at - b.at) || b.i - a.i)
    .map((x) => x.s);
}

/** NOT_DELIVERED with reason 11 is the shop's own refusal (our cancel): the parcel goes back to the sender. */
export const REFUSAL_REASON = '11';

/** Every CDEK status code of the reference → our status key. */
export const cdekStatusKeys: Record<string, StatusKey> = {
  ACCEPTED: 'uploaded',
  CREATED: 'uploaded',
  INVALID: 'uploadingError',
  REMOVED: 'deliveryCanceled',
  RECEIVED_AT_SHIPMENT_WAREHOUSE: 'onPointIn',
  READY_TO_SHIP_AT_SENDING_OFFICE: 'onPointIn',
  READY_FOR_SHIPMENT_IN_SENDER_CITY: 'onPointIn',
  TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY: 'onWay',
  SENT_TO_TRANSIT_CITY: 'onWay',
  ACCEPTED_IN_TRANSIT_CITY: 'onWay',
  ACCEPTED_AT_TRANSIT_WAREHOUSE: 'onWay',
  SENT_TO_RECIPIENT_CITY: 'onWay',
  ACCEPTED_IN_RECIPIENT_CITY: 'onPointOut',
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: 'onPointOut',
  ACCEPTED_AT_PICK_UP_POINT: 'readyForRecipient',
  TAKEN_BY_COURIER: 'delivering',
  RETURNED_TO_RECIPIENT_CITY_WAREHOUSE: 'returnedFromDelivery',
  POSTOMAT_POSTED: 'readyForRecipient',
  POSTOMAT_SEIZED: 'returnedFromDelivery',
  POSTOMAT_RECEIVED: 'delivered',
  DELIVERED: 'delivered',
  NOT_DELIVERED: 'returnedFromDelivery',
};

/** The status key of a CDEK code; codes the reference does not name are "in transit", never an error. */
export function statusKeyFor(code: string, reasonCode?: string | null): StatusKey {
  if (code === 'NOT_DELIVERED') return reasonCode === REFUSAL_REASON ? 'returning' : 'returnedFromDelivery';
  return cdekStatusKeys[code] ?? 'onWay';
}

/** `entity.statuses` → our history, oldest first; deleted statuses skipped, undated ones dropped. */
export function mapStatuses(statuses: CdekStatus[]): ProviderStatus[] {
  return sortStatuses(statuses).flatMap((s) => {
    const at = parseCdekDate(s.date_time);
    if (Number.isNaN(at)) return [];
    const reason = s.reason_code ?? undefined;
    const where = [s.city, reason ? `причина ${reason}` : undefined].filter(Boolean).join(', ');
    return [{
      key: statusKeyFor(s.code, reason),
      at,
      providerCode: s.code,
      providerName: s.name ?? s.code,
      providerDescription: where || undefined,
    }];
  });
}

/** CDEK's refusal codes → our field errors, so the shop sees what to fix. */
const errorFields: Record<string, string> = {
  v2_recipient_location_not_recognized: 'recipient.city',
  v2_delivery_address_multivalued: 'order.pointOutId',
  error_validate_im_dep_number_has_already_had_integration: 'order.clientNumber',
  v2_update_forbidden: 'order',
  v2_entity_has_final_status: 'order',
};

/** CDEK error entries → our field errors. */
export function fieldErrorsFrom(errors: CdekErrorEntry[]): FieldError[] {
  return errors.map((e) => ({ field: errorFields[e.code] ?? 'order', message: e.message ? `${e.message} (${e.code})` : e.code }));
}

/** CDEK error entries as one line for a status description. */
export const describeErrors = (errors: CdekErrorEntry[]) => errors.map((e) => (e.message ? `${e.message} (${e.code})` : e.code)).join('; ');

// ---------------------------------------------------------------- offices → points

const flag = (v: boolean | null | undefined): 0 | 1 | null => (v === true ? 1 : v === false ? 0 : null);
const grams = (kg: number | null | undefined) => (kg === null || kg === undefined ? null : Math.round(kg * 1000));

/** A CDEK office → our point record (/lists/points); `id` is its row in the points table (pointInId / pointOutId). */
export function officeToPoint(office: CdekOffice, id: number, enabled = true): Point {
  const loc = office.location;
  // The biggest cell of a parcel locker bounds what fits: its sides, largest first.
  const biggest = office.dimensions
    .map((d) => [d.width, d.height, d.depth].sort((a, b) => b - a))
    .sort((a, b) => b[0] * b[1] * b[2] - a[0] * a[1] * a[2])[0];
  const worktime: Partial<Worktime> = {};
  for (const w of office.work_time_list) {
    const day = String(w.day) as keyof Worktime;
    if (w.day >= 1 && w.day <= 7 && /^\d{2}:\d{2}\/\d{2}:\d{2}$/.test(w.time)) worktime[day] = w.time;
  }
  const reception = office.is_reception !== false;
  const handout = office.is_handout !== false;
  return {
    id,
    providerKey: CDEK_KEY,
    code: office.code,
    name: office.name ?? loc.address ?? office.code,
    postIndex: loc.postal_code ?? null,
    lat: loc.latitude ?? null,
    lng: loc.longitude ?? null,
    countryCode: loc.country_code ?? 'RU',
    region: loc.region ?? null,
    city: loc.city ?? '',
    community: null,
    street: null,
    house: null,
    block: null,
    office: null,
    address: loc.address_full ?? loc.address ?? '',
    phone: null,
    timetable: office.work_time ?? null,
    worktime: worktime as Worktime, // days CDEK does not list are closed
    fittingRoom: flag(office.is_dressing_room),
    cod: flag(office.allowed_cod),
    paymentCash: flag(office.have_cash),
    paymentCard: flag(office.have_cashless),
    availableOperation: reception && handout ? 3 : reception ? 1 : 2,
    type: office.type === 'POSTAMAT' ? 2 : 1,
    limits: {
      maxSizeA: biggest?.[0] ?? null,
      maxSizeB: biggest?.[1] ?? null,
      maxSizeC: biggest?.[2] ?? null,
      maxSizeSum: null,
      minWeight: grams(office.weight_min),
      maxWeight: grams(office.weight_max),
      maxCod: null,
    },
    enabled: enabled ? 1 : 0,
  };
}

// ---------------------------------------------------------------- intervals

export interface ToInterval {
  date: string | null;
  from: string;
  to: string;
}

/** `POST /v2/delivery/estimatedIntervals` answer → our toIntervals (dynamic: with dates). */
export function intervalsFromCdek(answer: CdekIntervals): ToInterval[] {
  return answer.date_intervals.flatMap((d) =>
    d.time_intervals.map((t) => ({ date: d.date.slice(0, 10), from: t.start_time.slice(0, 5), to: t.end_time.slice(0, 5) })),
  );
}
