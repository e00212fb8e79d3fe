/**
 * 5Post (X5 group: lockers and points in Pyaterochka / Perekrestok stores) — the pure mapping, started ahead of the
 * adapter: statuses, the error form, pickup points, prices from a point's zone rates (5Post has no price call) and the
 * order body of `POST /api/v3/orders`. Facts from shared/reference/carriers-ru.md and lapaygroup/fivepost-sdk; units
 * marked "unverified" in README.md. No I/O, no clock; tested against ./fixtures.
 */
import type { FieldError } from '../../../../shared/errors';
import { toKopecks, toRubles } from '../../../../shared/money';
import type { Point, Tariff, Worktime } from '../../../../shared/schemas/lists';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { StatusKey } from '../../../../shared/status-keys';
import type { ProviderStatus } from '../provider';

export const FIVEPOST_KEY = 'fivepost';

// ---------------------------------------------------------------- statuses

/**
 * 5Post reports two statuses of an order: `status`, the order's stage, and `executionStatus`, where the parcel is
 * (lapaygroup/fivepost-sdk Enum/OrderStatus: 8 stages, 20 execution states; an executionStatus may carry a reason
 * after a colon, "REJECTED: PICKUP_POINT_SIZE_VALIDATION"). The execution state says more, so it decides when known.
 */
export const fivePostStageKeys: Record<string, StatusKey> = {
  NEW: 'uploaded',
  APPROVED: 'uploaded',
  REJECTED: 'uploadingError',
  IN_PROCESS: 'onWay',
  DONE: 'delivered',
  INTERRUPTED: 'problem',
  CANCELLED: 'deliveryCanceled',
  UNCLAIMED: 'returnedFromDelivery',
};

export const fivePostExecutionKeys: Record<string, StatusKey> = {
  CREATED: 'uploaded',
  APPROVED: 'uploaded',
  REJECTED: 'uploadingError',
  PROBLEM: 'problem',
  RECEIVED_IN_WAREHOUSE_BY_PLACES: 'onPointIn',
  PRESORTED: 'onPointIn',
  RECEIVED_IN_WAREHOUSE_IN_DETAILS: 'onPointIn',
  SORTED_IN_WAREHOUSE: 'onWay',
  PLACED_IN_CONSOLIDATION_CELL_IN_WAREHOUSE: 'onWay',
  COMPLECTED_IN_WAREHOUSE: 'onWay',
  READY_TO_BE_SHIPPED_FROM_WAREHOUSE: 'onWay',
  PLACED_IN_POSTAMAT: 'readyForRecipient',
  PICKED_UP: 'delivered',
  // "Ready to be taken out of the point": the recipient did not come; then it is taken out and goes back.
  READY_FOR_WITHDRAW_FROM_PICKUP_POINT: 'returnedFromDelivery',
  WITHDRAWN_FROM_PICKUP_POINT: 'returning',
  WAITING_FOR_REPICKUP: 'onWay',
  LOST: 'lost',
  // Destroyed (a parcel nobody took back): gone for good.
  UTILIZED: 'lost',
  CANCELLED: 'deliveryCanceled',
  RETURNED_TO_PARTNER: 'returned',
};

/** 5Post's Russian names of its statuses (the SDK's list), shown beside our key. */
export const fivePostStatusNames: Record<string, string> = {
  NEW: 'Новый', APPROVED: 'Подтвержден', REJECTED: 'Отклонен', IN_PROCESS: 'В процессе исполнения', DONE: 'Исполнен', INTERRUPTED: 'Исполнение прервано',
  CANCELLED: 'Отменен', UNCLAIMED: 'Не востребован', CREATED: 'Создан', PROBLEM: 'Проблема', RECEIVED_IN_WAREHOUSE_BY_PLACES: 'Принят на складе по грузоместам',
  PRESORTED: 'Предсортировка', RECEIVED_IN_WAREHOUSE_IN_DETAILS: 'Принят на складе детально', SORTED_IN_WAREHOUSE: 'На сортировке на складе',
  PLACED_IN_CONSOLIDATION_CELL_IN_WAREHOUSE: 'Размещен в ячейку консолидации', COMPLECTED_IN_WAREHOUSE: 'Скомплектован на складе',
  READY_TO_BE_SHIPPED_FROM_WAREHOUSE: 'Готов к отгрузке со склада', PLACED_IN_POSTAMAT: 'Размещен в постамате', PICKED_UP: 'Выдан',
  READY_FOR_WITHDRAW_FROM_PICKUP_POINT: 'Готов к изъятию из пункта выдачи', WITHDRAWN_FROM_PICKUP_POINT: 'Изъят из пункта выдачи',
  WAITING_FOR_REPICKUP: 'Ожидает повторную выдачу', LOST: 'Утерян', UTILIZED: 'Утилизирован', RETURNED_TO_PARTNER: 'Отгружен партнеру',
};

/** An executionStatus split into its code and the reason after the colon. */
export function splitExecution(execution: string | null | undefined): { code: string; reason: string } {
  const text = (execution ?? '').trim();
  const colon = text.indexOf(':');
  return colon < 0 ? { code: text.toUpperCase(), reason: '' } : { code: text.slice(0, colon).trim().toUpperCase(), reason: text.slice(colon + 1).trim() };
}

/**
 * The key of one 5Post status: its execution state when documented, else its stage; one 5Post adds later keeps the
 * key before it (`unknown` at first), never a crash.
 */
export function fivePostStatusKey(status: string | null | undefined, execution: string | null | undefined, previous: StatusKey | null): StatusKey {
  const byExecution = fivePostExecutionKeys[splitExecution(execution).code];
  return byExecution ?? fivePostStageKeys[(status ?? '').trim().toUpperCase()] ?? previous ?? 'unknown';
}

/** One entry of getOrderHistory / getOrderStatus as far as the mapping reads it. */
export interface FivePostStatusEntry {
  status?: string | null;
  executionStatus?: string | null;
  changeDate: string;
}

/**
 * A history (5Post lists it newest first) → our statuses, oldest first; an entry whose date cannot be read is left
 * out rather than dated wrongly.
 */
export function mapFivePostHistory(entries: FivePostStatusEntry[]): ProviderStatus[] {
  // Entries of the same moment keep 5Post's order, reversed (a cancel in the minute of creation comes after it).
  const dated = [...entries].reverse().map((e) => ({ e, at: Date.parse(e.changeDate) })).filter((d) => Number.isFinite(d.at));
  dated.sort((a, b) => a.at - b.at);
  let previous: StatusKey | null = null;
  return dated.map(({ e, at }) => {
    const { code, reason } = splitExecution(e.executionStatus);
    const stage = (e.status ?? '').trim().toUpperCase();
    const key = fivePostStatusKey(stage, e.executionStatus, previous);
    previous = key;
    const providerCode = code || stage;
    return {
      key,
      at,
      providerCode,
      providerName: fivePostStatusNames[providerCode] ?? fivePostStatusNames[stage] ?? providerCode,
      ...(reason ? { providerDescription: reason } : {}),
    };
  });
}

// ---------------------------------------------------------------- errors

/** 5Post's refusal `{ success: false, errorCode, errorMsg }`, or null when the body is not one. */
export function fivePostError(body: unknown): { code: string; message: string } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (b.success !== false) return null;
  return { code: String(b.errorCode ?? ''), message: typeof b.errorMsg === 'string' ? b.errorMsg : 'refused' };
}

/** A refusal saying 5Post has no such order (a lookup that found nothing, not a failure). */
export const isNotFound = (error: { code: string; message: string }) => /NOT_FOUND/i.test(error.code) || /not found|не найден/i.test(error.message);

/** An expired or invalid JWT (a new one is asked for, once). */
export const isJwtRefusal = (status: number, body: unknown) => status === 401 || /jwt|token/i.test(fivePostError(body)?.message ?? '');

// ---------------------------------------------------------------- points and zone prices

export interface FivePostPoint {
  id: string;
  name?: string | null;
  type: string;
  fullAddress?: string | null;
  address?: { lat?: number | null; lng?: number | null; city?: string | null; region?: string | null; zipCode?: string | null; street?: string | null; house?: string | null } | null;
  workHours?: { day: string; opensAt: string; closesAt: string }[] | null;
  cellLimits?: { maxCellWidth?: number | null; maxCellHeight?: number | null; maxCellLength?: number | null; maxWeight?: number | null } | null;
  cashAllowed?: boolean | null;
  cardAllowed?: boolean | null;
  returnAllowed?: boolean | null;
  rate?: { zone: string; rateValue: number; rateValueWithVat: number; rateExtraValue?: number | null; rateExtraValueWithVat?: number | null }[] | null;
  /** The promised term from 5Post's warehouse, days. */
  deliverySL?: { sl: number }[] | null;
}

const days: Record<string, keyof Worktime> = { MON: '1', TUE: '2', WED: '3', THU: '4', FRI: '5', SAT: '6', SUN: '7' };
const hhmm = (t: string) => t.slice(0, 5);
/** 5Post's cell limits are in millimetres and milligrams (unverified: see README.md). */
const cmOf = (mm: number | null | undefined) => (mm ? Math.floor(mm / 10) : null);
const gramsOf = (mg: number | null | undefined) => (mg ? Math.floor(mg / 1000) : null);

/** A point of `pickuppoints/query` → our point record; `id` is its row in the points table. */
export function pointFromFivePost(p: FivePostPoint, id: number, enabled = true): Point {
  const worktime: Partial<Worktime> = {};
  for (const w of p.workHours ?? []) {
    const day = days[w.day?.toUpperCase()];
    if (day && /^\d{2}:\d{2}/.test(w.opensAt) && /^\d{2}:\d{2}/.test(w.closesAt)) worktime[day] = `${hhmm(w.opensAt)}/${hhmm(w.closesAt)}`;
  }
  const cash = p.cashAllowed === true;
  const card = p.cardAllowed === true;
  return {
    id,
    providerKey: FIVEPOST_KEY,
    code: p.id,
    name: p.name ?? p.fullAddress ?? p.id,
    postIndex: p.address?.zipCode ?? null,
    lat: p.address?.lat ?? null,
    lng: p.address?.lng ?? null,
    countryCode: 'RU',
    region: p.address?.region ?? null,
    city: p.address?.city ?? '',
    community: null,
    street: p.address?.street ?? null,
    house: p.address?.house ?? null,
    block: null,
    office: null,
    address: p.fullAddress ?? '',
    description: null,
    phone: null,
    timetable: null,
    worktime: worktime as Worktime,
    fittingRoom: null,
    cod: cash || card ? 1 : 0,
    paymentCash: cash ? 1 : 0,
    paymentCard: card ? 1 : 0,
    // Parcels are brought to 5Post's warehouses, not to the stores: the points only hand out.
    availableOperation: 2,
    type: p.type.toUpperCase() === 'POSTAMAT' ? 2 : 1,
    limits: {
      maxSizeA: cmOf(p.cellLimits?.maxCellLength),
      maxSizeB: cmOf(p.cellLimits?.maxCellWidth),
      maxSizeC: cmOf(p.cellLimits?.maxCellHeight),
      maxSizeSum: null,
      minWeight: null,
      maxWeight: gramsOf(p.cellLimits?.maxWeight),
      maxCod: null,
    },
    enabled: enabled ? 1 : 0,
  };
}

/** The weight the zone's base rate covers; each started kilogram above it costs the extra rate (unverified). */
export const BASE_RATE_GRAMS = 3000;

/**
 * 5Post has no price call: a parcel's price is the point's zone rate (with VAT) plus the extra rate for each started
 * kilogram above the base weight. Kopecks; null when the point has no rate.
 */
export function zonePriceKopecks(point: Pick<FivePostPoint, 'rate'>, weightGrams: number): { kopecks: number; zone: string } | null {
  const rate = point.rate?.[0];
  if (!rate) return null;
  const extraKg = Math.max(0, Math.ceil((weightGrams - BASE_RATE_GRAMS) / 1000));
  const extra = rate.rateExtraValueWithVat ?? (rate.rateExtraValue !== undefined && rate.rateExtraValue !== null ? rate.rateExtraValue * 1.2 : 0);
  return { kopecks: toKopecks(rate.rateValueWithVat) + extraKg * toKopecks(extra), zone: rate.zone };
}

// ---------------------------------------------------------------- the tariff

/**
 * 5Post has one way of delivery: from the shop's warehouse registered with 5Post (its `senderLocation`; 5Post collects
 * or the shop brings the parcels to 5Post's warehouse) to a locker or a store's point. No door delivery.
 */
export const FIVEPOST_TARIFF = { id: 9401, name: '5Post: до постамата или пункта выдачи', pickupType: 1, deliveryType: 2 } as const;

export function fivePostTariffRecords(): Tariff[] {
  return [{ id: FIVEPOST_TARIFF.id, providerKey: FIVEPOST_KEY, name: FIVEPOST_TARIFF.name, description: null, aliasName: 'fivepost-point', weightMin: null, weightMax: 15_000, pickupType: FIVEPOST_TARIFF.pickupType, deliveryType: FIVEPOST_TARIFF.deliveryType, paymentCash: 1 }];
}

/** The cheapest zone rate among a city's points and the longest promised term (`deliverySL`, days), for the calculator. */
export interface CityRate {
  rate: NonNullable<FivePostPoint['rate']>[number];
  days: number | null;
}

/** Keeps, per city, the rate of its cheapest point (by the base rate with VAT). */
export function addCityRate(rates: Map<string, CityRate>, p: FivePostPoint): void {
  const rate = p.rate?.[0];
  const city = p.address?.city ? cityKey(p.address.city) : '';
  if (!rate || !city) return;
  const days = Math.max(0, ...(p.deliverySL ?? []).map((d) => d.sl)) || null;
  const known = rates.get(city);
  if (!known || rate.rateValueWithVat < known.rate.rateValueWithVat) rates.set(city, { rate, days: days ?? known?.days ?? null });
}

/** The city's key in a rate table: 5Post writes cities with their type ("Тихорецк г"), the calculator without it. */
export const cityKey = (city: string) => city.trim().toLowerCase().replace(/^(г\.?|город)\s+/, '').replace(/\s+г\.?$/, '');

// ---------------------------------------------------------------- the order

/** One partner order of `POST /api/v3/orders`. Money in rubles, sizes in mm, weights in mg (unverified). */
export function toFivePostOrder(order: OrderCreate, locations: { receiver: string; sender: string }) {
  const o = order.order;
  const r = order.recipient;
  const cod = toKopecks(order.cost.codCost);
  return {
    senderOrderId: o.clientNumber,
    clientOrderId: o.clientNumber,
    // The brand 5Post names in its text messages to the recipient.
    brandName: order.sender.companyName ?? order.sender.contactName ?? 'ShipDesk',
    clientName: r.contactName,
    clientPhone: r.phone.replace(/[^\d+]/g, ''),
    ...(r.email ? { clientEmail: r.email } : {}),
    receiverLocation: locations.receiver,
    senderLocation: locations.sender,
    undeliverableOption: 'RETURN',
    cost: {
      paymentType: cod > 0 ? 'CASH' : 'PREPAYMENT',
      paymentValue: toRubles(cod),
      paymentCurrency: 'RUB',
      price: toRubles(toKopecks(order.cost.assessedCost)),
      priceCurrency: 'RUB',
      deliveryCost: toRubles(toKopecks(order.cost.deliveryCost ?? 0)),
      deliveryCostCurrency: 'RUB',
    },
    cargoes: order.places.map((p, i) => ({
      senderCargoId: p.placeNumber ?? `${o.clientNumber}-${i + 1}`,
      barcodes: [{ value: p.barcode ?? `${o.clientNumber}-${i + 1}` }],
      height: Math.ceil((p.height ?? o.height ?? 10) * 10),
      length: Math.ceil((p.length ?? o.length ?? 10) * 10),
      width: Math.ceil((p.width ?? o.width ?? 10) * 10),
      weight: Math.round(p.weight * 1000),
      price: toRubles(p.items.reduce((s, it) => s + toKopecks(it.assessedCost ?? it.cost ?? 0) * it.quantity, 0)),
      currency: 'RUB',
      vat: p.items[0]?.costVat ?? 0,
      productValues: p.items.map((it) => ({
        name: it.description,
        value: it.quantity,
        price: toRubles(toKopecks(it.cost ?? it.assessedCost ?? 0)),
        currency: 'RUB',
        vat: it.costVat ?? 0,
        ...(it.articul ? { vendorCode: it.articul } : {}),
      })),
    })),
  };
}

/** What the locker can hold: a box larger than the cell or heavier than it allows is refused before any call. */
export function fitsPoint(order: OrderCreate, point: Pick<Point, 'limits'>): FieldError[] {
  const errors: FieldError[] = [];
  const { maxSizeA, maxSizeB, maxSizeC, maxWeight } = point.limits;
  order.places.forEach((p, i) => {
    if (maxWeight !== null && p.weight > maxWeight) errors.push({ field: `places.${i}.weight`, message: `is more than the 5Post point takes (${maxWeight} g)` });
    const sides = [p.length ?? order.order.length, p.width ?? order.order.width, p.height ?? order.order.height];
    const cell = [maxSizeA, maxSizeB, maxSizeC];
    if (sides.every((s) => s !== undefined) && cell.every((c) => c !== null)) {
      const box = (sides as number[]).sort((a, b) => b - a);
      const room = (cell as number[]).sort((a, b) => b - a);
      if (box.some((s, k) => s > room[k])) errors.push({ field: `places.${i}`, message: `does not fit the 5Post cell (${room.join('×')} cm)` });
    }
  });
  return errors;
}
