import { unreadableAnswer } from '../service-failure';
import { ZodError, type z } from 'zod';
import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import { toKopecks } from '../../../../shared/money';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { Clock } from '../../clock';
import type { IntervalRequest, TariffSlots } from '../../intervals/interval-source';
import type { StoredReference } from '../carrier-kind';
import { splitCod, type CodSplit } from '../cod-split';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type Registration, type ShipmentRequest, type TrackedShipment } from '../provider';
import { trackEach } from '../track-each';
import { message, said } from '../../../../shared/messages';
import { failureReason } from '../service-failure';
import { YANDEX, type YandexClient } from './client';
import { YandexApiError, YandexAuthError } from './errors';
import {
  YANDEX_KEY, chooseOffer, duplicateRequestId, fieldErrorOf, intervalsFromYandex, isCancelled, kopecksOfPrice, mapHistory, settledStatuses, tariffOf,
  toYandexEdit, toYandexRequest, yandexTariffRecords, yandexTariffs, type YandexStations,
} from './mapping';
import { yandexPointSource } from './points';
import {
  yandexCancelSchema, yandexHistorySchema, yandexIntervalsSchema, yandexOffersSchema, yandexPricingSchema, yandexRequestIdSchema, yandexRequestInfoSchema,
  yandexRequestsInfoSchema, type YandexRequestInfo,
} from './wire';
import { checkOf } from '../check-of';

export interface YandexProviderOptions {
  client: YandexClient;
  reference: StoredReference;
  clock: Clock;
  /** Test mode: the platform's test host. Shown in the service list. */
  testMode?: boolean;
  /** The shop's own warehouse station at Yandex, which couriers collect from (pickupType 1); none → only drop-off at a point. */
  warehouseStationId?: string | null;
  /** Degrees of latitude per page of the points sync. */
  pointBandDegrees?: number;
  trackConcurrency?: number;
}

const SERVICE = 'Yandex Delivery';
/** How far back `find` looks for a request with the shop's number (the platform lists requests by creation time). */
const FIND_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Yandex Delivery as /lists/providers shows it. */
export function yandexInfo(testMode: boolean): ProviderInfo {
  return {
    key: YANDEX_KEY,
    name: testMode ? 'Яндекс Доставка (тестовый режим)' : 'Яндекс Доставка',
    description: testMode
      ? 'Яндекс Доставка «в другой день», тестовая среда: заказы не доставляются.'
      : 'Яндекс Доставка «в другой день»: в пункты выдачи, постаматы и курьером до двери, оплата при получении.',
    test: testMode,
    capabilities: { cancel: true, update: true, intervals: 'dynamic', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true },
  };
}

/** A refusal → ProviderRejectedError with the platform's own message; an answer ShipDesk cannot read is an outage. */
function translate(error: unknown): unknown {
  if (error instanceof YandexApiError) return new ProviderRejectedError(error.message, [fieldErrorOf(error.error)], error.code || undefined);
  if (error instanceof ZodError) return unreadableAnswer(YANDEX, error);
  return error;
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return schema.parse(body);
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000000Z');

/**
 * The Yandex Delivery "other day" adapter. Registering is two calls: `offers/create` prices the parcel's delivery
 * options, `offers/confirm` books one and gives the request id. The shop's number travels as operator_request_id,
 * which the platform keeps unique, so a lost reply is found again (`requests/info`) instead of booked twice.
 */
export function createYandexProvider(options: YandexProviderOptions) {
  const { client, reference, clock } = options;
  const info = yandexInfo(options.testMode ?? false);

  // ------------------------------------------------------------ checks that need no call

  async function resolveStations(order: OrderCreate, errors: FieldError[]): Promise<YandexStations> {
    const o = order.order;
    let source = '';
    if (o.pickupType === 1) {
      if (options.warehouseStationId) source = options.warehouseStationId;
      else errors.push({ field: 'order.pickupType', message: 'Yandex Delivery collects only from a warehouse station named in the connection; name one there, or hand the parcel over at a point (pickupType 2)' });
    } else if (o.pointInId === undefined) {
      errors.push({ field: 'order.pointInId', message: 'is required: with pickupType 2 the parcel is handed over at a Yandex drop-off point, name it' });
    } else {
      const point = await reference.point(YANDEX_KEY, o.pointInId);
      if (!point) errors.push({ field: 'order.pointInId', message: `${o.pointInId} is not a Yandex Delivery point known to ShipDesk (sync its points first)` });
      else if (!point.enabled || point.availableOperation === 2) errors.push({ field: 'order.pointInId', message: `Yandex Delivery point ${point.code} does not accept parcels from shops` });
      else source = point.code;
    }
    if (o.deliveryType === 1) return { source };
    if (o.pointOutId === undefined) {
      errors.push({ field: 'order.pointOutId', message: 'is required: with deliveryType 2 name the Yandex pickup point or locker' });
      return { source };
    }
    const point = await reference.point(YANDEX_KEY, o.pointOutId);
    if (!point) {
      errors.push({ field: 'order.pointOutId', message: `${o.pointOutId} is not a Yandex Delivery point known to ShipDesk (sync its points first)` });
      return { source };
    }
    if (!point.enabled || point.availableOperation === 1) errors.push({ field: 'order.pointOutId', message: `Yandex Delivery point ${point.code} does not hand out parcels` });
    if (toKopecks(order.cost.codCost) > 0 && point.cod === 0) errors.push({ field: 'cost.codCost', message: `Yandex Delivery point ${point.code} takes no payment on delivery` });
    return { source, destination: point.code };
  }

  async function prepare(order: OrderCreate): Promise<{ errors: FieldError[]; stations: YandexStations; split: CodSplit | null }> {
    const errors: FieldError[] = [];
    const o = order.order;
    const tariff = tariffOf(o.tariffId);
    if (!tariff) errors.push({ field: 'order.tariffId', message: `is not a Yandex Delivery tariff (${yandexTariffs.map((t) => `${t.id} ${t.name}`).join(', ')})` });
    else {
      if (tariff.deliveryType !== o.deliveryType) errors.push({ field: 'order.deliveryType', message: `Yandex Delivery tariff ${tariff.id} (${tariff.name}) expects deliveryType ${tariff.deliveryType}` });
      if (tariff.pickupType !== o.pickupType) errors.push({ field: 'order.pickupType', message: `Yandex Delivery tariff ${tariff.id} (${tariff.name}) expects pickupType ${tariff.pickupType}` });
    }
    if (o.deliveryType === 1 && !order.recipient.addressString && !(order.recipient.street && order.recipient.house)) {
      errors.push({ field: 'recipient.street', message: 'Yandex Delivery needs the street and house (or an address line) for a courier delivery' });
    }
    const cod = splitCod(order, SERVICE);
    if ('errors' in cod) errors.push(...cod.errors);
    const stations = await resolveStations(order, errors);
    return { errors, stations, split: 'split' in cod ? cod.split : null };
  }

  async function body(order: OrderCreate) {
    const { errors, stations, split } = await prepare(order);
    if (errors.length || !split) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    return toYandexRequest(order, stations, split);
  }

  // ------------------------------------------------------------ requests at Yandex

  async function requestInfo(requestId: string): Promise<YandexRequestInfo | null> {
    try {
      return parse(yandexRequestInfoSchema, await client.call('GET', '/request/info', { query: { request_id: requestId } }));
    } catch (error) {
      if (error instanceof YandexApiError && error.notFound) return null;
      throw translate(error);
    }
  }

  const registration = (requestId: string, sharingUrl?: string | null): Registration => ({ providerNumber: requestId, trackingUrl: sharingUrl ?? null });

  async function find(request: ShipmentRequest): Promise<Registration | null> {
    let found: YandexRequestInfo[];
    try {
      const now = clock.now();
      const answer = parse(yandexRequestsInfoSchema, await client.call('POST', '/requests/info', { body: { from: iso(now - FIND_WINDOW_MS), to: iso(now + 24 * 60 * 60 * 1000) } }));
      found = answer.requests.filter((r) => r.request?.info?.operator_request_id === request.clientNumber);
    } catch (error) {
      if (error instanceof YandexAuthError || error instanceof ProviderUnavailableError) throw error;
      // Any other answer is no proof the request is absent: never book again on a doubt.
      throw new ProviderUnavailableError(said('provider.lookupFailed', { service: YANDEX, number: request.clientNumber, reason: failureReason(error) }));
    }
    const live = found.find((r) => !r.state || !isCancelled(r.state.status));
    if (live) return registration(live.request_id, live.sharing_url);
    if (found.length) {
      throw new ProviderRejectedError(
        said('provider.canceledDuplicate', { service: YANDEX, number: request.clientNumber }),
        [{ field: 'order.clientNumber', ...said('provider.canceledDuplicateField', { service: YANDEX }) }],
      );
    }
    return null;
  }

  /**
   * Changes a booked request (`request/edit`): its recipient and destination. The platform refuses once the parcel
   * is on its way or settled; that refusal comes back with its own words. Sending the same change again is harmless.
   */
  async function update(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const edit = toYandexEdit(providerNumber, await body(request.order));
    try {
      await client.call('POST', '/request/edit', { body: edit });
    } catch (error) {
      throw translate(error);
    }
  }

  async function register(request: ShipmentRequest): Promise<Registration> {
    const o = request.order.order;
    const sent = await body(request.order);
    let offers;
    try {
      offers = parse(yandexOffersSchema, await client.call('POST', '/offers/create', { body: sent })).offers;
    } catch (error) {
      throw translate(error);
    }
    if (offers.length === 0) throw new ProviderRejectedError(said('provider.noDelivery', { service: YANDEX }), [{ field: 'order.tariffId', ...said('provider.noDeliveryRoute', { service: YANDEX }) }]);
    const offer = chooseOffer(offers, { date: o.deliveryDate, from: o.deliveryTimeStart, to: o.deliveryTimeEnd });
    if (!offer) {
      throw new ProviderRejectedError(said('provider.noDeliveryOn', { service: YANDEX, date: o.deliveryDate ?? '' }), [{ field: 'order.deliveryDate', ...said('provider.noIntervalOn', { service: YANDEX }) }]);
    }
    try {
      const { request_id } = parse(yandexRequestIdSchema, await client.call('POST', '/offers/confirm', { body: { offer_id: offer.offer_id } }));
      return registration(request_id);
    } catch (error) {
      if (error instanceof YandexApiError) {
        const duplicate = duplicateRequestId(error.error);
        // The platform already has this number: ours from a lost reply is adopted; a cancelled one is refused by find.
        if (duplicate) return registration(duplicate);
        if (duplicate === null) {
          const existing = await find(request);
          if (existing) return existing;
        }
      }
      throw translate(error);
    }
  }

  /** Cancels a request; one already cancelled is left as it is, one delivered or returned is refused. */
  async function cancel(providerNumber: string): Promise<void> {
    const current = await requestInfo(providerNumber);
    if (!current) throw new ProviderRejectedError(said('provider.unknownRequest', { service: YANDEX, number: providerNumber }), [], 'not_found');
    const status = current.state?.status ?? '';
    if (isCancelled(status)) return;
    if (settledStatuses.has(status)) throw new ProviderRejectedError(said('provider.requestCancelTooLate', { service: YANDEX, number: providerNumber, status }), [], status);
    let answer;
    try {
      answer = parse(yandexCancelSchema, await client.call('POST', '/request/cancel', { body: { request_id: providerNumber } }));
    } catch (error) {
      throw translate(error);
    }
    if (answer.status === 'ERROR') {
      throw new ProviderRejectedError(said('provider.cancelRefusedRequest', { service: YANDEX, number: providerNumber, reason: answer.description ?? answer.reason ?? message('provider.noReasonGiven') }), [], answer.reason ?? 'ERROR');
    }
  }

  async function history(shipment: TrackedShipment) {
    try {
      return mapHistory(parse(yandexHistorySchema, await client.call('GET', '/request/history', { query: { request_id: shipment.providerNumber } })).state_history);
    } catch (error) {
      if (error instanceof YandexApiError && error.notFound) return null;
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ documents

  function requestIds(shipments: TrackedShipment[]): string[] {
    if (shipments.length === 0 || shipments.length > 100) throw new ProviderRejectedError(said('provider.printBatchRequests', { service: YANDEX }));
    return shipments.map((s) => s.providerNumber);
  }

  async function labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array> {
    if (format !== 'pdf') throw new ProviderRejectedError(said('provider.pdfOnly', { service: YANDEX }));
    const body = { request_ids: requestIds(shipments), generate_type: 'one', label_size_mm: '100x150', language: 'ru' };
    try {
      return await client.pdf('/request/generate-labels', body);
    } catch (error) {
      throw translate(error);
    }
  }

  async function handoverAct(shipments: TrackedShipment[]): Promise<Uint8Array> {
    try {
      return await client.pdf('/request/get-handover-act', { request_ids: requestIds(shipments) });
    } catch (error) {
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ prices and intervals

  async function rates(request: QuoteRequest): Promise<Quote[]> {
    if (!request.to.city) return [];
    const source = options.warehouseStationId ? { platform_station_id: options.warehouseStationId } : { address: request.from.city ?? '' };
    const places = request.places.map((p) => ({ physical_dims: { weight_gross: Math.max(1, Math.round(p.weight)), dx: Math.ceil(p.length ?? 10), dy: Math.ceil(p.width ?? 10), dz: Math.ceil(p.height ?? 10) } }));
    const quotes: Quote[] = [];
    // Collection from the warehouse is offered only when the connection names one; drop-off always.
    for (const tariff of yandexTariffs.filter((t) => t.pickupType === 2 || options.warehouseStationId)) {
      const body = {
        source,
        destination: { address: request.to.city },
        tariff: tariff.policy,
        total_weight: places.reduce((s, p) => s + p.physical_dims.weight_gross, 0),
        total_assessed_price: request.assessedKopecks,
        client_price: request.codKopecks,
        payment_method: request.codKopecks > 0 ? 'cash_on_receipt' : 'already_paid',
        places,
      };
      let pricing;
      try {
        pricing = parse(yandexPricingSchema, await client.call('POST', '/pricing-calculator', { body }));
      } catch (error) {
        // A tariff that does not reach the place is left out; the other may still.
        if (error instanceof YandexApiError && error.httpStatus !== 401) continue;
        throw translate(error);
      }
      const kopecks = kopecksOfPrice(pricing.pricing_total);
      if (Number.isNaN(kopecks)) throw new ProviderUnavailableError(said('provider.priceUnreadable', { service: YANDEX, price: String(pricing.pricing_total) }));
      const days = pricing.delivery_days ?? 0;
      quotes.push({ tariffId: tariff.id, tariffProviderId: tariff.policy, tariffName: tariff.name, pickupType: tariff.pickupType, deliveryType: tariff.deliveryType, transportKopecks: kopecks, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: days, daysMax: days });
    }
    return quotes;
  }

  async function intervals(request: IntervalRequest): Promise<TariffSlots[]> {
    if (!request.to.city) return [];
    const couriers = yandexTariffs.filter((t) => t.deliveryType === 1 && (t.pickupType === 2 || options.warehouseStationId));
    const courier = couriers[0];
    let answer;
    try {
      const query = { station_id: options.warehouseStationId ?? undefined, full_address: request.to.city, last_mile_policy: courier.policy, send_unix: false };
      answer = parse(yandexIntervalsSchema, await client.call('GET', '/offers/info', { query }));
    } catch (error) {
      throw translate(error);
    }
    const toIntervals = intervalsFromYandex(answer.offers).filter((i) => !request.deliveryDate || i.date === request.deliveryDate);
    if (!toIntervals.length) return [];
    return couriers.map((t) => ({ tariffId: t.id, tariffProviderId: t.policy, tariffName: t.name, pickupType: t.pickupType, deliveryType: 1 as const, toIntervals }));
  }

  return {
    info,
    check: checkOf(prepare),
    register,
    find,
    update,
    cancel,
    track: (shipments: TrackedShipment[]) => trackEach(shipments, history, options.trackConcurrency),
    labels,
    handoverAct,
    rates,
    intervals,
    referenceData: { points: yandexPointSource(client, options.pointBandDegrees), tariffs: yandexTariffRecords },
    /** "Test connection": one cheap authorized call (a tiny box of pickup points around the Kremlin). */
    async testConnection(): Promise<{ expiresInSeconds: null }> {
      try {
        await client.call('POST', '/pickup-points/list', { body: { latitude: { from: 55.75, to: 55.76 }, longitude: { from: 37.61, to: 37.62 } } });
      } catch (error) {
        throw translate(error);
      }
      return { expiresInSeconds: null };
    },
  } satisfies Carrier & Record<string, unknown>;
}

export type YandexProvider = ReturnType<typeof createYandexProvider>;
