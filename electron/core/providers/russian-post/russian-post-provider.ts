import { ZodError, type z } from 'zod';
import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import { toKopecks } from '../../../../shared/money';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { PointSource } from '../../lists/carrier-reference';
import { mergePdfs } from '../../print/merge';
import type { StoredReference } from '../carrier-kind';
import type { FormedBatches, PostalBatches } from '../postal-batches';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type ProviderStatus, type Registration, type ShipmentRequest, type TrackedShipment } from '../provider';
import { unreadableAnswer } from '../service-failure';
import { trackEach } from '../track-each';
import { message, said } from '../../../../shared/messages';
import { failureReason } from '../service-failure';
import { RUSSIAN_POST, RussianPostApiError, RussianPostAuthError, type RussianPostClient } from './client';
import {
  RUSSIAN_POST_KEY, indexOfCity, isBarcode, mapPostOperations, postFieldError, refusalsOf, russianPostOrderErrors, russianPostTariffOf, russianPostTariffPointTypes, russianPostTariffRecords,
  russianPostTariffs, tariffRequest, toPostOrder, pointFromPost, type PostDestination,
} from './mapping';
import { RussianPostTrackingError, TICKET_MAX_BARCODES, type PostTracking } from './tracking';
import {
  postBatchesCreatedSchema, postCreatedSchema, postOrderSchema, postOrdersSchema, postPointSchema, postTariffSchema, type PostOrder, type PostPoint,
} from './wire';
import { checkOf } from '../check-of';

export interface RussianPostProviderOptions {
  client: RussianPostClient;
  tracking: PostTracking;
  reference: StoredReference;
  /** The shop's post office (its index), where parcels are handed over unless the order names another office. */
  postofficeCode: string;
  /** Test mode: orders go into the backlog only; ShipDesk forms no batches and sends no Ф103 for them. */
  testMode?: boolean;
  /** Up to this many barcodes are tracked one by one; more go through a ticket. */
  singleTrackingMax?: number;
  trackConcurrency?: number;
  /** Points stored per page of the reference sync. */
  pointsPageSize?: number;
}

export const RUSSIAN_POST_POINT_ID_BASE = 40_000_000;

/** Russian Post as /lists/providers shows it. */
export function russianPostInfo(testMode: boolean): ProviderInfo {
  return {
    key: RUSSIAN_POST_KEY,
    name: testMode ? 'Почта России (тестовый режим)' : 'Почта России',
    description: testMode
      ? 'Почта России, тестовый режим: заказы остаются в «Новых» на otpravka.pochta.ru, партии не формируются и Ф103 не отправляется.'
      : 'Почта России (API «Отправка»): посылки и ЕКОМ до отделения, пункта выдачи или почтомата и курьером до двери, наложенный платёж; заказы ждут в «Новых», трек-номер (ШПИ) появляется при формировании партии.',
    test: testMode,
    capabilities: { cancel: true, update: true, intervals: 'none', deliveryTypes: [1, 2], pickupTypes: [2], cod: true, tariffPointTypes: russianPostTariffPointTypes },
  };
}

/** A refusal → ProviderRejectedError with the service's own words; an answer ShipDesk cannot read is an outage. */
function translate(error: unknown): unknown {
  if (error instanceof RussianPostApiError) return new ProviderRejectedError(error.message, [postFieldError(error.refusal)], error.refusal.code);
  if (error instanceof RussianPostTrackingError) {
    return error.reason === 'auth' ? new RussianPostAuthError(said('provider.trackingLoginRefused', { service: message('service.russianPostTracking'), detail: error.ref ?? error.message })) : new ProviderRejectedError(error.ref ? { message: error.message, ...error.ref } : error.message);
  }
  if (error instanceof ZodError) return unreadableAnswer(RUSSIAN_POST, error);
  return error;
}

const parse = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => schema.parse(body);

/** Where an order is at Russian Post: waiting in the backlog, or in a batch (with its barcode). */
type Location = { where: 'backlog'; order: PostOrder } | { where: 'batch'; order: PostOrder } | null;

/**
 * Russian Post's Otpravka adapter. An order is created into the backlog (its id is our providerNumber); the shop's
 * number travels as `order-num`, so a lost reply is found again in the backlog, or in the batches, before any re-send.
 * The tracking number comes when the order joins a batch (`batches.form`); tracking reads it, asking Russian Post for it
 * when ShipDesk has not stored it yet (a batch formed on otpravka.pochta.ru).
 */
export function createRussianPostProvider(options: RussianPostProviderOptions) {
  const { client, tracking, reference } = options;
  const info = russianPostInfo(options.testMode ?? false);
  const singleMax = options.singleTrackingMax ?? 20;
  /** Tickets asked and not yet answered, with their barcodes (answers are ready some minutes later). */
  const tickets: { ticket: string; barcodes: Set<string> }[] = [];

  // ------------------------------------------------------------ checks and the request

  async function prepare(order: OrderCreate): Promise<{ errors: FieldError[]; office: string; destination: PostDestination }> {
    const errors = russianPostOrderErrors(order);
    const o = order.order;
    let office = options.postofficeCode;
    if (o.pointInId !== undefined) {
      const point = await reference.point(RUSSIAN_POST_KEY, o.pointInId);
      if (!point) errors.push({ field: 'order.pointInId', ...said('provider.officeUnknown', { id: o.pointInId, service: RUSSIAN_POST }) });
      else if (!point.enabled || point.availableOperation !== 3) errors.push({ field: 'order.pointInId', ...said('provider.pointNoShopParcels', { service: RUSSIAN_POST, code: point.code }) });
      else office = point.code;
    }
    if (!office) errors.push({ field: 'order.pointInId', ...said('provider.officeRequired', { service: RUSSIAN_POST }) });
    const tariff = russianPostTariffOf(o.tariffId);
    if (o.deliveryType === 1 || !tariff) return { errors, office, destination: {} };
    if (o.pointOutId === undefined) {
      errors.push({ field: 'order.pointOutId', ...said('provider.pointOutRequired') });
      return { errors, office, destination: {} };
    }
    const point = await reference.point(RUSSIAN_POST_KEY, o.pointOutId);
    if (!point) errors.push({ field: 'order.pointOutId', ...said('provider.pointUnknown', { id: o.pointOutId, service: RUSSIAN_POST }) });
    else {
      if (!point.enabled) errors.push({ field: 'order.pointOutId', ...said('provider.pointClosed', { service: RUSSIAN_POST, code: point.code }) });
      if (!(russianPostTariffPointTypes[String(tariff.id)] ?? [point.type]).includes(point.type)) errors.push({ field: 'order.pointOutId', ...said('provider.pointNotPostOffice', { service: RUSSIAN_POST, code: point.code }) });
      if (toKopecks(order.cost.codCost) > 0 && point.cod === 0) errors.push({ field: 'cost.codCost', ...said('provider.pointNoPayment', { service: RUSSIAN_POST, code: point.code }) });
      const weight = order.places.reduce((s, p) => s + p.weight, 0);
      if (point.limits.maxWeight !== null && weight > point.limits.maxWeight) errors.push({ field: 'places.0.weight', ...said('provider.pointMaxKg', { service: RUSSIAN_POST, code: point.code, kg: point.limits.maxWeight / 1000 }) });
    }
    return { errors, office, destination: point ? { pointIndex: point.code, pointCity: point.city, pointRegion: point.region } : {} };
  }

  async function body(order: OrderCreate) {
    const { errors, office, destination } = await prepare(order);
    if (errors.length) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    return toPostOrder(order, office, destination);
  }

  /** Refusals of single orders inside HTTP 200 → one ProviderRejectedError with every field error. */
  function refused(errors: z.output<typeof postCreatedSchema>['errors']): ProviderRejectedError {
    const all = errors.flatMap(refusalsOf);
    return new ProviderRejectedError(all.map((r) => `${r.description} (${r.code})`).join('; ') || said('provider.refusedBare', { service: RUSSIAN_POST }), all.map(postFieldError), all[0]?.code);
  }

  // ------------------------------------------------------------ orders at Russian Post

  async function locate(providerNumber: string): Promise<Location> {
    for (const where of ['backlog', 'batch'] as const) {
      try {
        return { where, order: parse(postOrderSchema, await client.call('GET', where === 'backlog' ? `/1.0/backlog/${providerNumber}` : `/1.0/shipment/${providerNumber}`)) };
      } catch (error) {
        if (!(error instanceof RussianPostApiError && error.notFound)) throw translate(error);
      }
    }
    return null;
  }

  async function find(request: ShipmentRequest): Promise<Registration | null> {
    try {
      for (const path of ['/1.0/backlog/search', '/1.0/shipment/search']) {
        const found = parse(postOrdersSchema, (await client.call('GET', path, { query: { query: request.clientNumber } })) ?? []).filter((o) => o['order-num'] === request.clientNumber);
        const mine = found.at(-1);
        if (mine) return { providerNumber: String(mine.id), ...(isBarcode(mine.barcode) ? { additionalProviderNumber: mine.barcode, barcode: mine.barcode } : {}) };
      }
      return null;
    } catch (error) {
      if (error instanceof ProviderUnavailableError) throw error;
      // Any other answer is no proof the order is absent: never send again on a doubt.
      throw new ProviderUnavailableError(said('provider.lookupFailed', { service: RUSSIAN_POST, number: request.clientNumber, reason: failureReason(error) }));
    }
  }

  async function register(request: ShipmentRequest): Promise<Registration> {
    const sent = await body(request.order);
    let answer;
    try {
      answer = parse(postCreatedSchema, await client.call('PUT', '/1.0/user/backlog', { body: [sent] }));
    } catch (error) {
      throw translate(error);
    }
    const [id] = answer['result-ids'];
    if (id === undefined) throw answer.errors.length ? refused(answer.errors) : new ProviderUnavailableError(said('provider.saidNothing', { service: RUSSIAN_POST, number: request.clientNumber }));
    return { providerNumber: String(id) };
  }

  /** Replaces an order while it waits in the backlog; one in a batch cannot change (Russian Post keeps its ШПИ and the batch's register). */
  async function update(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const sent = await body(request.order);
    let answer;
    try {
      answer = parse(postCreatedSchema, await client.call('PUT', `/1.0/backlog/${providerNumber}`, { body: sent }));
    } catch (error) {
      if (error instanceof RussianPostApiError && error.notFound) {
        throw new ProviderRejectedError(said('provider.inBatchNoChange', { service: RUSSIAN_POST, number: providerNumber }), [], 'NOT_IN_BACKLOG');
      }
      throw translate(error);
    }
    if (answer.errors.length) throw refused(answer.errors);
  }

  /**
   * Cancelling deletes the order at Russian Post: from the backlog, or from its batch while the batch is not checked in.
   * An order already gone counts as cancelled (repeating is harmless); one in a checked-in batch is refused.
   */
  async function cancel(providerNumber: string): Promise<void> {
    try {
      for (const path of ['/1.0/backlog', '/1.0/shipment']) {
        const answer = parse(postCreatedSchema, await client.call('DELETE', path, { body: [Number(providerNumber)] }));
        if (answer['result-ids'].length) return;
        const codes = answer.errors.flatMap(refusalsOf).map((r) => r.code);
        if (codes.some((c) => c !== 'NOT_FOUND')) throw new ProviderRejectedError(said('provider.deleteRefusedHandedOver', { service: RUSSIAN_POST, number: providerNumber, codes: codes.join(', ') }), [], codes[0]);
      }
    } catch (error) {
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ tracking

  async function barcodeOf(s: TrackedShipment): Promise<string | null> {
    if (isBarcode(s.additionalProviderNumber)) return s.additionalProviderNumber;
    const found = await locate(s.providerNumber);
    return found?.where === 'batch' && isBarcode(found.order.barcode) ? found.order.barcode : null;
  }

  async function single(barcode: string): Promise<ProviderStatus[] | null> {
    try {
      return mapPostOperations(await tracking.history(barcode));
    } catch (error) {
      if (error instanceof RussianPostTrackingError && error.reason === 'notFound') return null;
      throw translate(error);
    }
  }

  /** Answers of tickets asked before, for the barcodes wanted now; tickets still being prepared are kept. */
  async function ticketAnswers(wanted: Set<string>): Promise<Map<string, ProviderStatus[]>> {
    const result = new Map<string, ProviderStatus[]>();
    for (const t of [...tickets]) {
      if (![...t.barcodes].some((b) => wanted.has(b))) continue;
      const answer = await tracking.answer(t.ticket).catch((error: unknown) => {
        throw translate(error);
      });
      if (!answer) continue;
      tickets.splice(tickets.indexOf(t), 1);
      for (const [barcode, operations] of answer) if (wanted.has(barcode)) result.set(barcode, mapPostOperations(operations));
    }
    return result;
  }

  /**
   * A few barcodes are tracked one by one (getOperationHistory); many through tickets: the answers of tickets asked at
   * an earlier refresh are read, and the barcodes still without one get a new ticket (its answer comes at a later
   * refresh, as the service prepares it). Orders still in the backlog have no barcode and no history yet.
   */
  async function track(shipments: TrackedShipment[]): Promise<Map<string, ProviderStatus[]>> {
    const barcodes = new Map<string, string>();
    await trackEach(shipments, async (s) => {
      const barcode = await barcodeOf(s);
      if (barcode) barcodes.set(s.providerNumber, barcode);
      return null;
    }, options.trackConcurrency);
    const withBarcode = shipments.filter((s) => barcodes.has(s.providerNumber));
    if (withBarcode.length <= singleMax) return trackEach(withBarcode, (s) => single(barcodes.get(s.providerNumber)!), options.trackConcurrency);
    const wanted = new Set(barcodes.values());
    const answered = await ticketAnswers(wanted);
    const waiting = new Set(tickets.flatMap((t) => [...t.barcodes]));
    const unasked = [...wanted].filter((b) => !answered.has(b) && !waiting.has(b));
    for (let i = 0; i < unasked.length; i += TICKET_MAX_BARCODES) {
      const part = unasked.slice(i, i + TICKET_MAX_BARCODES);
      try {
        tickets.push({ ticket: await tracking.ticket(part), barcodes: new Set(part) });
      } catch (error) {
        throw translate(error);
      }
    }
    const result = new Map<string, ProviderStatus[]>();
    for (const s of withBarcode) {
      const history = answered.get(barcodes.get(s.providerNumber)!);
      if (history) result.set(s.providerNumber, history);
    }
    return result;
  }

  // ------------------------------------------------------------ documents

  function checkCount(shipments: TrackedShipment[]) {
    if (shipments.length === 0 || shipments.length > 100) throw new ProviderRejectedError(said('provider.printBatch', { service: RUSSIAN_POST }));
  }

  /**
   * The service's own forms of each order: in a batch its address label Ф7 (and the money order Ф112 when it carries
   * cash on delivery), still in the backlog its pre-batch forms; merged into one PDF for the printer.
   */
  async function labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array> {
    if (format !== 'pdf') throw new ProviderRejectedError(said('provider.formsPdfOnly', { service: RUSSIAN_POST }));
    checkCount(shipments);
    try {
      const files: Uint8Array[] = [];
      for (const s of shipments) {
        const found = await locate(s.providerNumber);
        if (!found) throw new ProviderRejectedError(said('provider.unknownOrder', { service: RUSSIAN_POST, number: s.providerNumber }));
        if (found.where === 'backlog') {
          files.push(await client.pdf(`/1.0/forms/backlog/${s.providerNumber}/forms`, { 'print-type': 'PAPER' }));
          continue;
        }
        files.push(await client.pdf(`/1.0/forms/${s.providerNumber}/f7pdf`, { 'print-type': 'PAPER' }));
        if ((found.order.payment ?? 0) > 0) files.push(await client.pdf(`/1.0/forms/${s.providerNumber}/f112pdf`));
      }
      return await mergePdfs(files);
    } catch (error) {
      throw translate(error);
    }
  }

  /** The handover act at Russian Post is the batch's Ф103 register: the registers of the orders' batches, merged. */
  async function handoverAct(shipments: TrackedShipment[]): Promise<Uint8Array> {
    checkCount(shipments);
    try {
      const names = new Set<string>();
      for (const s of shipments) {
        const found = await locate(s.providerNumber);
        const name = found?.where === 'batch' ? found.order['batch-name'] : null;
        if (!name) throw new ProviderRejectedError(said('provider.notInBatch', { service: RUSSIAN_POST, number: s.providerNumber }));
        names.add(name);
      }
      return await mergePdfs(await Promise.all([...names].map((n) => client.pdf(`/1.0/forms/${encodeURIComponent(n)}/f103pdf`))));
    } catch (error) {
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ batches

  const batches: PostalBatches = {
    async form(shipments, sendingDate): Promise<FormedBatches> {
      if (options.testMode) throw new ProviderRejectedError(said('provider.testModeNoBatch', { service: RUSSIAN_POST }));
      if (!/^\d{4}-\d{2}-\d{2}$/.test(sendingDate)) throw new ProviderRejectedError(said('provider.sendingDateForm', { value: sendingDate }));
      const ids = shipments.map((s) => Number(s.providerNumber));
      let answer;
      try {
        answer = parse(postBatchesCreatedSchema, await client.call('POST', '/1.0/user/shipment', { query: { 'sending-date': sendingDate }, body: ids }));
      } catch (error) {
        throw translate(error);
      }
      const result: FormedBatches = { batches: [], placed: [], refused: [] };
      const inBatch = new Set<string>();
      for (const b of answer.batches) {
        result.batches.push({ name: b['batch-name'], mailType: b['mail-type'] ?? '', mailCategory: b['mail-category'] ?? null, sendingDate: b['list-number-date'] ?? sendingDate, shipments: b['shipment-count'] ?? 0 });
        inBatch.add(b['batch-name']);
      }
      try {
        for (const name of inBatch) {
          for (const o of parse(postOrdersSchema, await client.call('GET', `/1.0/batch/${encodeURIComponent(name)}/shipment`))) {
            if (isBarcode(o.barcode) && ids.includes(o.id)) result.placed.push({ providerNumber: String(o.id), batchName: name, barcode: o.barcode });
          }
        }
        for (const e of answer.errors) {
          const s = e.position !== undefined ? shipments[e.position] : undefined;
          if (!s) continue;
          const codes = refusalsOf(e);
          // Put into a batch before (a lost reply): it is placed, with the batch it is in.
          if (codes.some((c) => c.code === 'ALREADY_IN_BATCH')) {
            const found = await locate(s.providerNumber);
            if (found?.where === 'batch' && isBarcode(found.order.barcode) && found.order['batch-name']) {
              result.placed.push({ providerNumber: s.providerNumber, batchName: found.order['batch-name'], barcode: found.order.barcode });
              continue;
            }
          }
          result.refused.push({ providerNumber: s.providerNumber, message: codes.map((c) => `${c.description} (${c.code})`).join('; ') });
        }
      } catch (error) {
        throw translate(error);
      }
      return result;
    },

    async checkIn(batchName) {
      if (options.testMode) throw new ProviderRejectedError(said('provider.testModeNoF103', { service: RUSSIAN_POST }));
      try {
        await client.call('POST', `/1.0/batch/${encodeURIComponent(batchName)}/checkin`);
      } catch (error) {
        if (error instanceof RussianPostApiError && error.refusal.code === 'ALREADY_SENT') return;
        throw translate(error);
      }
    },

    async register(batchName) {
      try {
        return await client.pdf(`/1.0/forms/${encodeURIComponent(batchName)}/f103pdf`);
      } catch (error) {
        throw translate(error);
      }
    },
  };

  // ------------------------------------------------------------ prices

  /** Each tariff priced by POST /1.0/tariff from the shop's office to the city's head post office; a city without a known index gets none. */
  async function rates(request: QuoteRequest): Promise<Quote[]> {
    const to = indexOfCity(request.to.city);
    if (!to || !options.postofficeCode) return [];
    const place = request.places[0];
    const parcel = {
      massGrams: request.places.reduce((s, p) => s + p.weight, 0),
      declaredKopecks: request.assessedKopecks,
      codKopecks: request.codKopecks,
      dimension: request.places.length === 1 && place?.length && place.width && place.height ? { length: Math.ceil(place.length), width: Math.ceil(place.width), height: Math.ceil(place.height) } : undefined,
    };
    const quotes: Quote[] = [];
    for (const tariff of russianPostTariffs) {
      let answer;
      try {
        answer = parse(postTariffSchema, await client.call('POST', '/1.0/tariff', { body: tariffRequest(tariff, options.postofficeCode, to, parcel) }));
      } catch (error) {
        // A tariff that does not reach the place is left out; the others may still.
        if (error instanceof RussianPostApiError) continue;
        throw translate(error);
      }
      const max = answer['delivery-time']?.['max-days'] ?? 0;
      quotes.push({
        tariffId: tariff.id,
        tariffProviderId: `${tariff.mailType}${tariff.courier ? '+courier' : ''}`,
        tariffName: tariff.name,
        pickupType: 2,
        deliveryType: tariff.deliveryType,
        transportKopecks: answer['total-rate'] + (answer['total-vat'] ?? 0),
        insuranceKopecks: 0,
        codFeeKopecks: 0,
        daysMin: answer['delivery-time']?.['min-days'] ?? max,
        daysMax: max,
      });
    }
    return quotes;
  }

  // ------------------------------------------------------------ points

  /** Its delivery points (post offices, pickup points, lockers) from one list, handed to lists/ a page at a time. */
  function pointSource(): PointSource {
    const size = options.pointsPageSize ?? 1000;
    let all: PostPoint[] = [];
    let skipped = 0;
    return {
      providerKey: RUSSIAN_POST_KEY,
      source: RUSSIAN_POST_KEY,
      idBase: RUSSIAN_POST_POINT_ID_BASE,
      async page(index) {
        if (index === 0) {
          const raw = await client.call('GET', '/1.0/delivery-point/findAll');
          all = [];
          skipped = 0;
          for (const r of Array.isArray(raw) ? raw : []) {
            const parsed = postPointSchema.safeParse(r);
            if (parsed.success) all.push(parsed.data);
            else skipped++;
          }
        }
        const slice = all.slice(index * size, (index + 1) * size);
        return { points: slice.map((p) => ({ code: p['delivery-point-index'], toPoint: (id: number) => pointFromPost(p, id) })), skipped: index === 0 ? skipped : 0, more: (index + 1) * size < all.length };
      },
    };
  }

  return {
    info,
    check: checkOf(prepare),
    register,
    find,
    update,
    cancel: (providerNumber: string) => cancel(providerNumber),
    track,
    labels,
    handoverAct,
    rates,
    batches,
    referenceData: { points: pointSource(), tariffs: russianPostTariffRecords },
    /** "Test connection": the account's shipping points, which must include the shop's office. */
    async testConnection(): Promise<{ offices: string[] }> {
      let offices: string[];
      try {
        const raw = await client.call('GET', '/1.0/user-shipping-points');
        offices = (Array.isArray(raw) ? raw : []).map((p: { 'operator-postcode'?: unknown }) => String(p['operator-postcode'] ?? '')).filter(Boolean);
      } catch (error) {
        throw translate(error);
      }
      if (options.postofficeCode && !offices.includes(options.postofficeCode)) {
        throw new ProviderRejectedError(said('provider.officeNotShipping', { office: options.postofficeCode, offices: offices.join(', ') || message('provider.noneListed') }));
      }
      return { offices };
    },
  } satisfies Carrier & Record<string, unknown>;
}

export type RussianPostProvider = ReturnType<typeof createRussianPostProvider>;
