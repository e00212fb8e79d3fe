import { unzipSync } from 'fflate';
import { ZodError, type z } from 'zod';
import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import { message, said } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { Clock } from '../../clock';
import type { PointSource } from '../../lists/carrier-reference';
import { mergePdfs } from '../../print/merge';
import type { StoredReference } from '../carrier-kind';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type Registration, type ShipmentRequest, type TrackedShipment } from '../provider';
import { unreadableAnswer } from '../service-failure';
import { trackEach } from '../track-each';
import { FIVEPOST, FivePostApiError, type FivePostClient } from './client';
import {
  FIVEPOST_KEY, FIVEPOST_TARIFF, addCityRate, cityKey, fitsPoint, fivePostTariffRecords, isNotFound, mapFivePostHistory, pointFromFivePost, toFivePostOrder, zonePriceKopecks,
  type CityRate,
} from './mapping';
import { fivePostCreatedSchema, fivePostPointSchema, fivePostPointsPageSchema, fivePostStatusesSchema, type FivePostPointWire } from './wire';

export interface FivePostProviderOptions {
  client: FivePostClient;
  reference: StoredReference;
  clock: Clock;
  /** The shop's warehouse as registered with 5Post (`senderLocation` of every order). */
  warehouseId: string;
  testMode: boolean;
  /** Points asked per page (the SDK advises at most 500). */
  pageSize?: number;
  trackConcurrency?: number;
}

const SERVICE = '5Post';
export const FIVEPOST_POINT_ID_BASE = 40_000_000;
const DAY = 24 * 60 * 60 * 1000;

/** 5Post as /lists/providers shows it: lockers and store points only, from the shop's warehouse. */
export function fivePostInfo(testMode: boolean): ProviderInfo {
  return {
    key: FIVEPOST_KEY,
    name: '5Post',
    description:
      '5Post (X5): доставка только в постаматы и пункты выдачи в магазинах «Пятёрочка» и «Перекрёсток», до двери не возит; заказы забираются со склада магазина, зарегистрированного в 5Post; цена — по тарифной зоне пункта.',
    test: testMode,
    capabilities: { cancel: true, update: false, intervals: 'none', deliveryTypes: [2], pickupTypes: [1], cod: true },
  };
}

/** A refusal → ProviderRejectedError with 5Post's words and code; an answer ShipDesk cannot read is an outage. */
function translate(error: unknown): unknown {
  if (error instanceof FivePostApiError) return new ProviderRejectedError(said('provider.said', { service: FIVEPOST, reason: error.ref ?? error.message }), [], error.code);
  if (error instanceof ZodError) return unreadableAnswer(FIVEPOST, error);
  return error;
}

const parse = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => schema.parse(body);
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b;
const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-';

/**
 * 5Post's adapter (api-omni.x5.ru). An order is created once by the shop's number (`senderOrderId`; 5Post itself
 * answers `alreadyCreated` with the same order for a number it has), looked up by that number before any re-send,
 * cancelled while 5Post allows, tracked by its history. Prices come from the points' zone rates (5Post has no price
 * call), kept per city from the last pass over its points.
 */
export function createFivePostProvider(options: FivePostProviderOptions) {
  const { client, reference, clock } = options;
  const pageSize = options.pageSize ?? 500;
  let cityRates: { table: Map<string, CityRate>; at: number } | null = null;
  let loadingRates: Promise<Map<string, CityRate>> | null = null;

  async function target(order: OrderCreate, errors: FieldError[]): Promise<string | null> {
    const o = order.order;
    // A door delivery, an unknown or closed point are refused by the order rules (capabilities, reference data).
    if (o.deliveryType !== 2 || o.pointOutId === undefined) return null;
    const point = await reference.point(FIVEPOST_KEY, o.pointOutId);
    if (!point || !point.enabled) return null;
    errors.push(...fitsPoint(order, point));
    if (order.cost.codCost > 0 && point.cod === 0) errors.push({ field: 'cost.codCost', ...said('rule.noCod', { name: `${SERVICE} ${point.code}` }) });
    return point.code;
  }

  async function body(order: OrderCreate) {
    if (order.order.deliveryType !== 2) throw new ProviderRejectedError(said('rule.noDoorDelivery', { name: SERVICE }), [{ field: 'order.deliveryType', ...said('rule.noDoorDelivery', { name: SERVICE }) }]);
    const errors: FieldError[] = [];
    const receiver = await target(order, errors);
    if (!receiver) errors.push({ field: 'order.pointOutId', ...said('rule.pointOutUnknown', { id: order.order.pointOutId ?? '—', name: SERVICE }) });
    if (errors.length) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    return toFivePostOrder(order, { receiver: receiver!, sender: options.warehouseId });
  }

  async function find(request: ShipmentRequest): Promise<Registration | null> {
    let list;
    try {
      list = parse(fivePostStatusesSchema, await client.call('POST', '/api/v1/getOrderStatus', [{ senderOrderId: request.clientNumber }]));
    } catch (error) {
      if (error instanceof FivePostApiError && isNotFound(error)) return null;
      if (error instanceof ProviderUnavailableError) throw error;
      // Any other answer is no proof the order is absent: never send again on a doubt.
      throw new ProviderUnavailableError(said('provider.lookupFailed', { service: FIVEPOST, number: request.clientNumber, reason: error instanceof Error ? error.message : String(error) }));
    }
    const mine = list.find((s) => s.orderId && (s.senderOrderId === undefined || s.senderOrderId === null || s.senderOrderId === request.clientNumber));
    return mine?.orderId ? { providerNumber: mine.orderId } : null;
  }

  async function register(request: ShipmentRequest): Promise<Registration> {
    const partnerOrder = await body(request.order);
    try {
      const created = parse(fivePostCreatedSchema, await client.call('POST', '/api/v3/orders', { partnerOrders: [partnerOrder] }));
      const mine = created.find((c) => c.senderOrderId === request.clientNumber);
      if (!mine) throw new ProviderUnavailableError(said('provider.createdWithoutOrder', { service: FIVEPOST, number: request.clientNumber }));
      return { providerNumber: mine.orderId, barcode: mine.cargoes?.[0]?.barcode ?? null };
    } catch (error) {
      throw translate(error);
    }
  }

  async function history(orderId: string) {
    try {
      return mapFivePostHistory(parse(fivePostStatusesSchema, await client.call('POST', '/api/v1/getOrderHistory', { orderId })));
    } catch (error) {
      if (error instanceof FivePostApiError && isNotFound(error)) return null;
      throw translate(error);
    }
  }

  /** Cancels while 5Post allows it; cancelling an order 5Post already cancelled succeeds (a repeated call). */
  async function cancel(providerNumber: string): Promise<void> {
    try {
      await client.call('DELETE', `/api/v1/cancelOrder/${encodeURIComponent(providerNumber)}`);
    } catch (error) {
      if (!(error instanceof FivePostApiError)) throw translate(error);
      const statuses = await history(providerNumber);
      if (statuses?.at(-1)?.key === 'deliveryCanceled') return;
      throw translate(error);
    }
  }

  /** 5Post's own labels (`orderLabels/bySenderOrderId`): one PDF, or a ZIP of PDFs merged into one file for the printer. */
  async function labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array> {
    if (format !== 'pdf') throw new ProviderRejectedError(said('provider.pdfOnly', { service: FIVEPOST }));
    if (shipments.length === 0 || shipments.length > 100) throw new ProviderRejectedError(said('provider.printBatchOrders', { service: FIVEPOST }));
    let file;
    try {
      file = await client.file('/api/v1/orderLabels/bySenderOrderId', { senderOrderIds: shipments.map((s) => s.request.clientNumber) });
    } catch (error) {
      throw translate(error);
    }
    if (isPdf(file.bytes)) return file.bytes;
    if (!isZip(file.bytes)) throw new ProviderUnavailableError(said('provider.labelsNotPdfOrZip', { service: FIVEPOST, type: file.contentType || message('provider.noType') }));
    const entries = Object.entries(unzipSync(file.bytes)).filter(([name, bytes]) => /\.pdf$/i.test(name) && isPdf(bytes));
    if (!entries.length) throw new ProviderUnavailableError(said('provider.zipWithoutPdf', { service: FIVEPOST }));
    entries.sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    return mergePdfs(entries.map(([, bytes]) => bytes));
  }

  // ------------------------------------------------------------ points and zone prices

  async function pointsPage(index: number) {
    const page = parse(fivePostPointsPageSchema, await client.call('POST', '/api/v1/pickuppoints/query', { pageNumber: index, pageSize }));
    const points: FivePostPointWire[] = [];
    let skipped = 0;
    for (const raw of page.content) {
      const parsed = fivePostPointSchema.safeParse(raw);
      if (parsed.success) points.push(parsed.data);
      else skipped++;
    }
    return { points, skipped, more: index + 1 < page.totalPages };
  }

  /** Its points, 5Post's pages one by one, for lists/ to store; the zone rates of a complete pass are kept for prices. */
  function pointSource(): PointSource {
    let building = new Map<string, CityRate>();
    return {
      providerKey: FIVEPOST_KEY,
      source: FIVEPOST_KEY,
      idBase: FIVEPOST_POINT_ID_BASE,
      async page(index) {
        if (index === 0) building = new Map();
        const page = await pointsPage(index).catch((error: unknown) => Promise.reject(translate(error)));
        for (const p of page.points) addCityRate(building, p);
        if (!page.more) cityRates = { table: building, at: clock.now() };
        return { points: page.points.map((p) => ({ code: p.id, toPoint: (id: number) => pointFromFivePost(p, id) })), skipped: page.skipped, more: page.more };
      },
    };
  }

  /** The rates per city: from the last pass over the points when it is under a day old, else one pass now. */
  function ratesByCity(): Promise<Map<string, CityRate>> {
    if (cityRates && clock.now() - cityRates.at < DAY) return Promise.resolve(cityRates.table);
    loadingRates ??= (async () => {
      const table = new Map<string, CityRate>();
      for (let index = 0, more = true; more; index++) {
        const page = await pointsPage(index).catch((error: unknown) => Promise.reject(translate(error)));
        for (const p of page.points) addCityRate(table, p);
        more = page.more;
      }
      cityRates = { table, at: clock.now() };
      return table;
    })().finally(() => {
      loadingRates = null;
    });
    return loadingRates;
  }

  /** 5Post has no price call: the cheapest zone rate of the destination city's points, by the parcel's weight. */
  async function rates(request: QuoteRequest): Promise<Quote[]> {
    if (!request.to.city) return [];
    const entry = (await ratesByCity()).get(cityKey(request.to.city));
    if (!entry) return [];
    const grams = request.places.reduce((sum, p) => sum + p.weight, 0);
    const price = zonePriceKopecks({ rate: [entry.rate] }, grams);
    if (!price) return [];
    const days = entry.days ?? 0;
    return [{ tariffId: FIVEPOST_TARIFF.id, tariffProviderId: `zone-${price.zone}`, tariffName: FIVEPOST_TARIFF.name, pickupType: FIVEPOST_TARIFF.pickupType, deliveryType: FIVEPOST_TARIFF.deliveryType, transportKopecks: price.kopecks, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: days, daysMax: days }];
  }

  return {
    info: fivePostInfo(options.testMode),
    async check(order: OrderCreate) {
      const errors: FieldError[] = [];
      await target(order, errors);
      return errors;
    },
    register,
    find,
    cancel: (providerNumber: string) => cancel(providerNumber),
    track: (shipments: TrackedShipment[]) => trackEach(shipments, (s) => history(s.providerNumber), options.trackConcurrency),
    labels,
    rates,
    referenceData: { points: pointSource(), tariffs: fivePostTariffRecords },
    /** "Test connection": a fresh JWT for the API key, then one page of one point. */
    async testConnection(): Promise<{ expiresInSeconds: number }> {
      try {
        const signedIn = await client.authenticate();
        await client.call('POST', '/api/v1/pickuppoints/query', { pageNumber: 0, pageSize: 1 });
        return signedIn;
      } catch (error) {
        throw translate(error);
      }
    },
  } satisfies Carrier & Record<string, unknown>;
}

export type FivePostProvider = ReturnType<typeof createFivePostProvider>;
