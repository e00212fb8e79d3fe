import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import { toKopecks, toRubles } from '../../../../shared/money';
import type { DeliveryInterval } from '../../../../shared/schemas/calculator';
import type { Point, ProviderService, Tariff, Worktime } from '../../../../shared/schemas/lists';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { statusKeys, type StatusKey } from '../../../../shared/status-keys';
import { parseTimestamp } from '../../../../shared/time';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { ResolvedPlace } from '../../calculator/geo';
import type { IntervalRequest, TariffSlots } from '../../intervals/interval-source';
import type { CourierCallCreated, CourierCallCreateInput } from '../../../../shared/schemas/courier-call';
import type { CourierCallRegistration, CourierCallRequest } from '../courier-call';
import { itemKey, ProviderRejectedError, type ProviderStatus, type Registration, type Telling } from '../provider';
import { said } from '../../../../shared/messages';
import { type UpstreamApiError, upstreamCodes } from './errors';
import type {
  RemoteCalculation, RemoteIntervals, RemoteOrderDetail, RemotePoint, RemoteProvider, RemoteService, RemoteStatus, RemoteTariff,
} from './wire';

/**
 * Pure mapping between ShipDesk and an upstream that speaks the same delivery interface: service keys
 * and reference ids (ours ↔ the upstream's), the order body, statuses, reference records, intervals and
 * prices. No IO here; the transport is client.ts, the orchestration upstream-provider.ts.
 */

/** provider_key of an upstream connection in provider_connections. */
export const UPSTREAM_KIND = 'upstream';

export type ProviderCapabilities = ProviderInfo['capabilities'];

// ------------------------------------------------------------------ service keys

/** An upstream service as it appears here: `upstream:<connection id>:<the upstream's key>`. */
export const localKey = (connectionId: number, remoteKey: string) => `${UPSTREAM_KIND}:${connectionId}:${remoteKey}`;

/** The connection and the upstream's key of a service key; null for keys that are not an upstream's. */
export function parseLocalKey(key: string): { connectionId: number; remoteKey: string } | null {
  const m = /^upstream:([1-9]\d{0,8}):(.+)$/.exec(key);
  return m ? { connectionId: Number(m[1]), remoteKey: m[2] } : null;
}

/** The longest service key an order takes (order.providerKey). */
export const MAX_KEY_LENGTH = 50;

/**
 * Which of the upstream's services are taken over: not its own upstream services (`upstream:…`), so two
 * ShipDesks pointed at each other do not mirror each other's services back and forth, and only keys that
 * still fit an order's providerKey once prefixed.
 */
export const takesService = (connectionId: number, remoteKey: string) =>
  !remoteKey.startsWith(`${UPSTREAM_KIND}:`) && localKey(connectionId, remoteKey).length <= MAX_KEY_LENGTH;

// ------------------------------------------------------------------ reference ids

/**
 * Points and tariffs share id spaces in the local tables with the sandbox and CDEK data, and another
 * ShipDesk upstream uses the very same sandbox ids. So an upstream record gets a local id of its own,
 * computed (no lookup table, stable across syncs): BASE + connection × SPAN + the upstream's id.
 * Up to 899,000 connections and upstream ids below 10^10 stay within JavaScript's safe integers.
 */
export const UPSTREAM_ID_BASE = 10_000_000_000_000;
export const UPSTREAM_ID_SPAN = 10_000_000_000;

/** Our id of the upstream's point or tariff `remoteId`; null when it cannot be given one. */
export function localId(connectionId: number, remoteId: number): number | null {
  if (!Number.isSafeInteger(remoteId) || remoteId < 0 || remoteId >= UPSTREAM_ID_SPAN) return null;
  const id = UPSTREAM_ID_BASE + connectionId * UPSTREAM_ID_SPAN + remoteId;
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * The upstream's id of an id an order names: one of this connection's local ids is translated back; an
 * id below the upstream range is taken as the upstream's own (reference data not synced yet); the id of
 * another upstream connection is an error (null).
 */
export function remoteIdOf(connectionId: number, id: number): number | null {
  if (id < UPSTREAM_ID_BASE) return id;
  const owner = Math.floor((id - UPSTREAM_ID_BASE) / UPSTREAM_ID_SPAN);
  return owner === connectionId ? id - UPSTREAM_ID_BASE - owner * UPSTREAM_ID_SPAN : null;
}

// ------------------------------------------------------------------ services

/** What ShipDesk assumes of an upstream service that does not describe itself: the upstream decides. */
export const defaultCapabilities: ProviderCapabilities = {
  cancel: true,
  update: true,
  intervals: 'dynamic',
  deliveryTypes: [1, 2],
  pickupTypes: [1, 2],
  cod: true,
};

export function capabilitiesOf(remote: Partial<ProviderCapabilities> | null | undefined): ProviderCapabilities {
  return { ...defaultCapabilities, ...Object.fromEntries(Object.entries(remote ?? {}).filter(([, v]) => v !== undefined)) };
}

/** The stored record of an upstream service (upstream_services). */
export interface UpstreamServiceRecord {
  remoteKey: string;
  name: string;
  description: string;
  test: boolean;
  capabilities: ProviderCapabilities;
}

export const serviceRecordOf = (p: RemoteProvider): UpstreamServiceRecord => ({
  remoteKey: p.key,
  name: p.name || p.key,
  description: p.description,
  test: p.test,
  capabilities: capabilitiesOf(p.capabilities),
});

/** The service as /lists/providers shows it: the upstream's name with the connection's, so the list stays readable. */
export function upstreamInfo(connection: { id: number; name: string }, service: UpstreamServiceRecord): ProviderInfo {
  const via = `через «${connection.name}»`;
  return {
    key: localKey(connection.id, service.remoteKey),
    name: `${service.name} — ${via}`,
    description: [service.description.trim(), `Служба «${service.remoteKey}» вышестоящего агрегатора, ${via}.`].filter(Boolean).join(' '),
    test: service.test,
    capabilities: service.capabilities,
  };
}

// ------------------------------------------------------------------ orders

/**
 * The order as the upstream is sent it: the same interface body, with its service key and its own
 * tariff and point ids. providerConnectId names our connection (it is in the key already), so it is not
 * sent: the upstream uses its default account for the service.
 */
export function toRemoteOrder(order: OrderCreate, connectionId: number, remoteKey: string): { body: OrderCreate } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const o = order.order;
  if (o.providerConnectId !== undefined && o.providerConnectId !== connectionId) {
    errors.push({ field: 'order.providerConnectId', ...said('provider.upstreamConnectionOnly', { id: connectionId }) });
  }
  const translate = (field: 'tariffId' | 'pointOutId' | 'pointInId') => {
    const id = o[field];
    if (id === undefined) return undefined;
    const remote = remoteIdOf(connectionId, id);
    if (remote === null) errors.push({ field: `order.${field}`, ...said('provider.upstreamOtherConnection', { id }) });
    return remote ?? undefined;
  };
  const tariffId = translate('tariffId');
  const pointOutId = translate('pointOutId');
  const pointInId = translate('pointInId');
  if (errors.length) return { errors };
  const { providerConnectId: _ours, ...rest } = o;
  return {
    body: {
      ...order,
      order: {
        ...rest,
        providerKey: remoteKey,
        tariffId: tariffId!,
        ...(pointOutId !== undefined ? { pointOutId } : {}),
        ...(pointInId !== undefined ? { pointInId } : {}),
      },
    },
  };
}

/** Where an order stands at the upstream, as far as its transfer goes. */
export type RemoteStage =
  | { stage: 'pending' }
  | { stage: 'failed'; description: string; providerCode: string | undefined }
  | { stage: 'canceled' }
  | { stage: 'registered' };

export function stageOf(status: RemoteStatus): RemoteStage {
  switch (status.key) {
    case 'uploading':
      return { stage: 'pending' };
    case 'uploadingError':
      return {
        stage: 'failed',
        description: status.description || status.providerDescription || status.name || 'the upstream could not transfer the order to the delivery service',
        providerCode: status.providerCode || undefined,
      };
    case 'deliveryCanceled':
      return { stage: 'canceled' };
    default:
      return { stage: 'registered' };
  }
}

/** The time a status record was set at the upstream (its `created`), or null when it is unreadable. */
export function statusTime(status: RemoteStatus): number | null {
  const at = parseTimestamp(status.created);
  return Number.isNaN(at) ? null : at;
}

/** Our numbers of an order the upstream has registered; null while it has no delivery-service number yet. */
export function registrationFrom(remoteOrderId: string, detail: RemoteOrderDetail, current: RemoteStatus | null): Registration | null {
  const providerNumber = detail.order.providerNumber.trim();
  if (!providerNumber) return null;
  return {
    providerNumber,
    additionalProviderNumber: remoteOrderId,
    barcode: detail.order.barcode || null,
    trackingUrl: detail.order.trackingUrl || null,
    // Only the upstream's own `uploaded` record is the time tracking will report for it.
    registeredAt: current && current.key === 'uploaded' ? statusTime(current) : null,
  };
}

const digits = (phone: string | undefined) => (phone ?? '').replace(/\D/g, '');

/**
 * Is the order the upstream holds under our clientNumber the one we sent? Compared on what both sides
 * certainly carry (service, recipient's phone, weight); a field the upstream does not show is not held
 * against it. Guards against adopting another client's order that happens to share the number.
 */
export function sameShipment(order: OrderCreate, remoteKey: string, detail: RemoteOrderDetail): boolean {
  const d = detail.order;
  if (d.providerKey && d.providerKey !== remoteKey) return false;
  const phone = digits(detail.recipient?.phone);
  if (phone && phone !== digits(order.recipient.phone)) return false;
  if (typeof d.weight === 'number' && Math.abs(d.weight - order.order.weight) > 1e-6) return false;
  return true;
}

/** Items bought out, by item key, from the upstream's order information (items' quantityDelivered). */
export function quantityDeliveredOf(detail: RemoteOrderDetail): Record<string, number> | undefined {
  const result: Record<string, number> = {};
  let any = false;
  for (const place of detail.places ?? []) {
    for (const item of place.items) {
      if (typeof item.quantityDelivered !== 'number') continue;
      any = true;
      const key = itemKey({ articul: item.articul || undefined, description: item.description });
      result[key] = (result[key] ?? 0) + item.quantityDelivered;
    }
  }
  return any ? result : undefined;
}

// ------------------------------------------------------------------ statuses

const knownKeys = new Set<string>(statusKeys);

/** One upstream status record → ours. Its time is the upstream's `created`: stable, so a status is recognised when reported again. */
export function statusFromRemote(status: RemoteStatus): ProviderStatus | null {
  const at = statusTime(status);
  if (at === null) return null;
  const key: StatusKey = knownKeys.has(status.key) ? (status.key as StatusKey) : 'unknown';
  return {
    key,
    at,
    ...(status.description ? { description: status.description } : {}),
    providerCode: status.providerCode || status.key,
    ...(status.providerName || status.name ? { providerName: status.providerName || status.name } : {}),
    ...(status.providerDescription ? { providerDescription: status.providerDescription } : {}),
  };
}

/**
 * The upstream's history (newest first, as statusHistory gives it) → ours, oldest first. The upstream's
 * own `uploading` records are left out: this side keeps its own record of every transfer, and the
 * upstream's answer to it (uploaded / uploadingError) completes ours.
 */
export function historyFromRemote(rowsNewestFirst: RemoteStatus[]): ProviderStatus[] {
  const seen = new Set<string>();
  const out: ProviderStatus[] = [];
  for (const row of [...rowsNewestFirst].reverse()) {
    if (row.key === 'uploading') continue;
    const status = statusFromRemote(row);
    if (!status) continue;
    const id = `${status.key}@${status.at}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(status);
  }
  return out;
}

/** A fingerprint of the upstream's current status: the same fingerprint later means nothing happened since. */
export const statusStamp = (status: RemoteStatus) => `${status.key}@${status.created}#${status.description}`;

// ------------------------------------------------------------------ errors

/** The upstream refused the order's data: a refusal with its own words and field errors. */
export function refusalFrom(error: UpstreamApiError, framed?: (reason: string) => Telling): ProviderRejectedError {
  return new ProviderRejectedError(framed ? framed(error.description) : error.description, error.fieldErrors, error.code);
}

/** "clientNumber must be unique": the upstream already holds an order with this number. */
export const clientNumberTaken = (error: UpstreamApiError) =>
  error.is(upstreamCodes.validation) && error.fieldErrors.some((e) => e.field === 'order.clientNumber' || e.field === 'clientNumber');

// ------------------------------------------------------------------ reference records

const worktimeDays = new Set(['1', '2', '3', '4', '5', '6', '7']);

function worktimeOf(raw: Record<string, unknown> | null | undefined): Worktime {
  const out: Worktime = {};
  for (const [day, hours] of Object.entries(raw ?? {})) {
    if (worktimeDays.has(day) && typeof hours === 'string' && /^\d{2}:\d{2}\/\d{2}:\d{2}$/.test(hours)) out[day as keyof Worktime] = hours;
  }
  return out;
}

const oneOf = <T extends number>(value: number | null | undefined, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/** An upstream point as a row of our points list (our id, our service key); null when it has no id we can give. */
export function pointFromRemote(connectionId: number, p: RemotePoint): Point | null {
  const id = localId(connectionId, p.id);
  if (id === null) return null;
  const address = p.address ?? [p.postIndex, p.city, p.street, p.house].filter(Boolean).join(', ');
  const limits = p.limits ?? {};
  return {
    id,
    providerKey: localKey(connectionId, p.providerKey),
    code: p.code ?? String(p.id),
    name: p.name || address,
    postIndex: p.postIndex,
    lat: p.lat,
    lng: p.lng,
    countryCode: (p.countryCode ?? 'RU').toUpperCase(),
    region: p.region,
    city: p.city,
    community: p.community,
    street: p.street,
    house: p.house,
    block: p.block,
    office: p.office,
    address,
    phone: p.phone,
    timetable: p.timetable,
    worktime: worktimeOf(p.worktime),
    fittingRoom: p.fittingRoom as 0 | 1 | null,
    cod: p.cod as 0 | 1 | null,
    paymentCash: p.paymentCash as 0 | 1 | null,
    paymentCard: p.paymentCard as 0 | 1 | null,
    availableOperation: oneOf(p.availableOperation, [1, 2, 3] as const, 3),
    type: oneOf(p.type, [1, 2, 3, 4] as const, 1),
    limits: {
      maxSizeA: limits.maxSizeA ?? null,
      maxSizeB: limits.maxSizeB ?? null,
      maxSizeC: limits.maxSizeC ?? null,
      maxSizeSum: limits.maxSizeSum ?? null,
      minWeight: limits.minWeight ?? null,
      maxWeight: limits.maxWeight ?? null,
      maxCod: limits.maxCod ?? null,
    },
    enabled: p.enabled === 0 ? 0 : 1,
  };
}

export function tariffFromRemote(connectionId: number, t: RemoteTariff): Tariff | null {
  const id = localId(connectionId, t.id);
  if (id === null) return null;
  return {
    id,
    providerKey: localKey(connectionId, t.providerKey),
    name: t.name || String(t.id),
    description: t.description ?? null,
    aliasName: t.aliasName ?? null,
    weightMin: t.weightMin ?? null,
    weightMax: t.weightMax ?? null,
    pickupType: t.pickupType as 1 | 2 | null,
    deliveryType: t.deliveryType as 1 | 2 | null,
    paymentCash: t.paymentCash === 1 ? 1 : 0,
  };
}

export const serviceFromRemote = (connectionId: number, s: RemoteService): ProviderService => ({
  providerKey: localKey(connectionId, s.providerKey),
  name: s.name || s.extraParamName,
  extraParamName: s.extraParamName,
  valueType: s.valueType,
  description: s.description,
});

// ------------------------------------------------------------------ calculator and intervals

/** A calculator place as the interface writes it; null when nothing names where it is. */
export function toRemotePlace(place: ResolvedPlace): { countryCode: string; city?: string; lat?: number; lng?: number } | null {
  const city = place.city ?? place.known?.name ?? undefined;
  if (!city && (place.lat === null || place.lng === null)) return null;
  return {
    countryCode: place.countryCode,
    ...(city ? { city } : {}),
    ...(place.lat !== null && place.lng !== null ? { lat: place.lat, lng: place.lng } : {}),
  };
}

/** POST /calculator/intervals for one upstream service; a place nothing names is left to the upstream. */
export function toRemoteIntervalsRequest(req: IntervalRequest, remoteKey: string) {
  const from = toRemotePlace(req.from);
  const to = toRemotePlace(req.to);
  return {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    codCost: toRubles(req.codKopecks),
    pickupDate: req.pickupDate,
    ...(req.deliveryDate ? { deliveryDate: req.deliveryDate } : {}),
    providerKeys: [remoteKey],
  };
}

const isOneOrTwo = (n: number): n is 1 | 2 => n === 1 || n === 2;

/** The upstream's door intervals of one service → ours (our tariff ids), one entry per pickup type. */
export function slotsFromRemote(connectionId: number, remoteKey: string, answer: RemoteIntervals): TariffSlots[] {
  const slots: TariffSlots[] = [];
  for (const group of answer.deliveryToDoor.filter((g) => g.providerKey === remoteKey)) {
    for (const t of group.tariffs) {
      const tariffId = localId(connectionId, t.tariffId);
      if (tariffId === null) continue;
      const toIntervals: DeliveryInterval[] = t.toIntervals.map((i) => ({ date: i.date ?? null, from: i.from, to: i.to }));
      const deliveryType = t.deliveryTypes.find(isOneOrTwo) ?? 1;
      const pickupTypes = t.pickupTypes.filter(isOneOrTwo);
      for (const pickupType of pickupTypes.length ? pickupTypes : [1 as const]) {
        slots.push({ tariffId, tariffProviderId: t.tariffProviderId, tariffName: t.tariffName, pickupType, deliveryType, toIntervals });
      }
    }
  }
  return slots;
}

/** POST /calculator for one upstream service; null when the places cannot be named. */
export function toRemoteCalculation(req: QuoteRequest, remoteKey: string) {
  const from = toRemotePlace(req.from);
  const to = toRemotePlace(req.to);
  if (!from || !to) return null;
  return {
    from,
    to,
    places: req.places,
    pickupDate: req.pickupDate,
    assessedCost: toRubles(req.assessedKopecks),
    codCost: toRubles(req.codKopecks),
    providerKeys: [remoteKey],
  };
}

/**
 * The upstream's prices of one service → quotes (our tariff ids). Its deliveryCost is kept to the kopeck;
 * the insurance and cash-handling fees are told apart when the upstream says they are included in it.
 */
export function quotesFromRemote(connectionId: number, remoteKey: string, answer: RemoteCalculation): Quote[] {
  const quotes: Quote[] = [];
  const seen = new Set<string>();
  for (const group of [...answer.deliveryToDoor, ...answer.deliveryToPoint].filter((g) => g.providerKey === remoteKey)) {
    for (const t of group.tariffs) {
      const tariffId = localId(connectionId, t.tariffId);
      const pickupType = t.pickupTypes.find(isOneOrTwo);
      const deliveryType = t.deliveryTypes.find(isOneOrTwo);
      if (tariffId === null || !pickupType || !deliveryType) continue;
      const id = `${tariffId}/${pickupType}/${deliveryType}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const total = toKopecks(t.deliveryCost);
      const insurance = t.feesIncluded ? toKopecks(t.insuranceFee ?? 0) : 0;
      const codFee = t.feesIncluded ? toKopecks(t.cashServiceFee ?? 0) : 0;
      const split = insurance + codFee <= total;
      quotes.push({
        tariffId,
        tariffProviderId: t.tariffProviderId,
        tariffName: t.tariffName,
        pickupType,
        deliveryType,
        transportKopecks: split ? total - insurance - codFee : total,
        insuranceKopecks: split ? insurance : 0,
        codFeeKopecks: split ? codFee : 0,
        daysMin: t.daysMin ?? 0,
        daysMax: t.daysMax ?? t.daysMin ?? 0,
      });
    }
  }
  return quotes;
}

// ------------------------------------------------------------------ courier calls

/** A courier call as the upstream is sent it: the interface's own body, with its service key and its order ids. */
export function toRemoteCourierCall(request: CourierCallRequest, remoteKey: string, remoteOrderIds: string[]): CourierCallCreateInput {
  const { address } = request;
  return {
    providerKey: remoteKey,
    date: request.date,
    timeStart: request.timeStart,
    timeEnd: request.timeEnd,
    weight: request.weight,
    length: request.length,
    width: request.width,
    height: request.height,
    orderIds: remoteOrderIds,
    postIndex: address.postIndex,
    countryCode: address.countryCode,
    region: address.region,
    area: address.area,
    city: address.city,
    street: address.street,
    house: address.house,
    block: address.block,
    office: address.office,
    lat: address.lat,
    lng: address.lng,
    addressString: address.addressString,
    companyName: request.companyName,
    contactName: request.contactName,
    phone: request.phone,
    email: request.email,
    comment: request.comment,
  };
}

/** The upstream's answer: its number, with its own call id kept to cancel by; its `error` is a refusal. */
export function courierCallFromRemote(answer: CourierCallCreated): CourierCallRegistration {
  if (answer.error || !answer.providerNumber) throw new ProviderRejectedError(answer.error ?? 'the upstream gave the courier call no number', [], 'COURIER_REFUSED');
  return { providerNumber: answer.providerNumber, additionalProviderNumber: String(answer.id) };
}
