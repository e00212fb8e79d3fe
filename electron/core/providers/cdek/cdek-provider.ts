import { unreadableAnswer } from '../service-failure';
import { ZodError } from 'zod';
import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Clock } from '../../clock';
import type { StoredReference } from '../carrier-kind';
import {
  ProviderRejectedError, ProviderUnavailableError, type Carrier, type ProviderStatus, type Registration, type ShipmentRequest,
  type TrackedShipment,
} from '../provider';
import { trackEach } from '../track-each';
import { message, said, type MessageParam } from '../../../../shared/messages';
import { CDEK, type CdekClient } from './client';
import { CdekApiError, notFoundCodes } from './errors';
import {
  CDEK_KEY, REFUSAL_REASON, cdekTariffRecords, createOutcome, currentStatusCode, deliveryModes, describeErrors, fieldErrorsFrom, formatCdekDate,
  intervalsFromCdek, latestStatus, mapStatuses, parcelTariff, parseCdekDate, splitCod, tariffsFromTariffList, toCdekLocation, toCdekOrder,
  toCdekOrderUpdate, type CalcAddress, type CalculatorTariff, type CodSplit, type ResolvedPoints, type ToInterval,
} from './mapping';
import { cdekIntervals, cdekRates } from './calculator-sources';
import { cdekCourierCalls } from './intakes';
import { cdekOfficePages } from './offices';
import {
  cdekCitySchema, cdekIntervalsSchema, cdekOrderResponseSchema, cdekPrintFormSchema, cdekTariffListSchema, type CdekOrderEntity,
  type CdekOrderResponse,
} from './wire';
import { checkOf } from '../check-of';
import { waitBetweenCalls } from '../between-calls';

export interface CdekProviderOptions {
  client: CdekClient;
  /** CDEK offices lists/ stored, for the order checks (the adapter never writes them). */
  reference: StoredReference;
  clock: Clock;
  /** Test mode: CDEK's test host, orders are never delivered. Shown in the service list. */
  testMode?: boolean;
  /**
   * Pauses between polls of an order CDEK has accepted but not yet checked; their count bounds the wait.
   * Past it register throws ProviderUnavailableError and the outbox's next attempt finds the order.
   */
  pollDelaysMs?: number[];
  sleep?: (ms: number) => Promise<void>;
  officesPageSize?: number;
  /** Parallel status requests while tracking. */
  trackConcurrency?: number;
}

/** Statuses after which an order cannot be canceled or changed any more. */
const finalCodes = new Set(['DELIVERED', 'POSTOMAT_RECEIVED', 'NOT_DELIVERED', 'REMOVED']);
const DUPLICATE = 'error_validate_im_dep_number_has_already_had_integration';

/** CDEK as /lists/providers shows it. */
export function cdekInfo(testMode: boolean): ProviderInfo {
  return {
    key: CDEK_KEY,
    name: testMode ? 'СДЭК (тестовый режим)' : 'СДЭК',
    description: testMode
      ? 'СДЭК через API v2, тестовая среда: заказы не доставляются.'
      : 'СДЭК через API v2: доставка до двери, в пункты выдачи и постаматы, наложенный платёж.',
    test: testMode,
    capabilities: { cancel: true, update: true, intervals: 'dynamic', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true },
  };
}

/** A CDEK error answer → a refusal with CDEK's own messages; an answer ShipDesk cannot read is treated as an outage. */
function translate(error: unknown): unknown {
  if (error instanceof CdekApiError) return new ProviderRejectedError(describeErrors(error.errors), fieldErrorsFrom(error.errors), error.code);
  if (error instanceof ZodError) return unreadableAnswer(CDEK, error);
  return error;
}

function parseOrder(body: unknown): CdekOrderResponse {
  const parsed = cdekOrderResponseSchema.safeParse(body);
  if (!parsed.success) throw new ProviderUnavailableError(said('provider.unreadableOrder', { service: CDEK }));
  return parsed.data;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** Calculator input: where from, where to, the parcels (g, cm). */
export interface CdekCalcRequest {
  from: CalcAddress;
  to: CalcAddress;
  places: { weight: number; length?: number; width?: number; height?: number }[];
  tariffIds?: number[];
}

/**
 * The CDEK API v2 adapter. Creation is asynchronous at CDEK: POST answers 202 ACCEPTED and the order is
 * checked later, so register polls for a bounded time and otherwise leaves the rest to the outbox's next
 * attempt, which looks the order up by its number (`find`) before ever sending it again.
 */
export function createCdekProvider(options: CdekProviderOptions) {
  const { client, reference, clock } = options;
  const pollDelays = options.pollDelaysMs ?? [500, 1000, 2000, 3000, 5000];
  const sleep = options.sleep ?? waitBetweenCalls;
  const info = cdekInfo(options.testMode ?? false);

  // ------------------------------------------------------------ local checks

  async function resolvePoints(order: OrderCreate, errors: FieldError[]): Promise<ResolvedPoints> {
    const o = order.order;
    const tariff = parcelTariff(o.tariffId);
    const points: ResolvedPoints = {};
    if (o.deliveryType === 2 && o.pointOutId !== undefined) {
      const point = await reference.point(CDEK_KEY, o.pointOutId);
      if (!point) errors.push({ field: 'order.pointOutId', message: `${o.pointOutId} is not a CDEK pickup point known to ShipDesk (sync CDEK points first)` });
      else {
        if (!point.enabled) errors.push({ field: 'order.pointOutId', message: `CDEK point ${point.code} is closed` });
        if (point.availableOperation === 1) errors.push({ field: 'order.pointOutId', message: `CDEK point ${point.code} does not hand parcels out` });
        if (tariff && deliveryModes[tariff.mode].postamat && point.type !== 2) {
          errors.push({ field: 'order.pointOutId', message: `tariff ${tariff.code} delivers to a parcel locker; ${point.code} is not one` });
        }
        if (order.cost.codCost > 0 && point.cod === 0) errors.push({ field: 'cost.codCost', message: `CDEK point ${point.code} does not take cash on delivery` });
        if (point.limits.maxWeight !== null && o.weight > point.limits.maxWeight) {
          errors.push({ field: 'order.weight', message: `CDEK point ${point.code} takes parcels up to ${point.limits.maxWeight} g` });
        }
        points.deliveryPoint = point.code;
      }
    }
    if (o.pickupType === 2) {
      if (o.pointInId === undefined) {
        errors.push({ field: 'order.pointInId', message: 'is required: with pickupType 2 the parcel is brought to a CDEK office, name it' });
      } else {
        const point = await reference.point(CDEK_KEY, o.pointInId);
        if (!point) errors.push({ field: 'order.pointInId', message: `${o.pointInId} is not a CDEK office known to ShipDesk (sync CDEK points first)` });
        else {
          if (!point.enabled || point.availableOperation === 2) errors.push({ field: 'order.pointInId', message: `CDEK office ${point.code} does not accept parcels` });
          points.shipmentPoint = point.code;
        }
      }
    }
    return points;
  }

  /** Everything ShipDesk can check without calling CDEK; returns the body parts when all is well. */
  async function prepare(order: OrderCreate): Promise<{ errors: FieldError[]; points: ResolvedPoints; split: CodSplit | null }> {
    const errors: FieldError[] = [];
    const o = order.order;
    const tariff = parcelTariff(o.tariffId);
    if (tariff) {
      const mode = deliveryModes[tariff.mode];
      if (mode.pickupType !== o.pickupType) errors.push({ field: 'order.pickupType', message: `CDEK tariff ${tariff.code} (${tariff.name}) expects pickupType ${mode.pickupType}` });
      if (mode.deliveryType !== o.deliveryType) errors.push({ field: 'order.deliveryType', message: `CDEK tariff ${tariff.code} (${tariff.name}) expects deliveryType ${mode.deliveryType}` });
    }
    order.places.forEach((p, i) => {
      if (p.items.length > 126) errors.push({ field: `places.${i}.items`, message: 'CDEK takes at most 126 kinds of items per package' });
    });
    const cod = splitCod(order);
    if ('errors' in cod) errors.push(...cod.errors);
    const points = await resolvePoints(order, errors);
    return { errors, points, split: 'split' in cod ? cod.split : null };
  }

  async function bodyParts(order: OrderCreate): Promise<{ points: ResolvedPoints; split: CodSplit }> {
    const { errors, points, split } = await prepare(order);
    if (errors.length || !split) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    return { points, split };
  }

  // ------------------------------------------------------------ orders at CDEK

  async function getOrder(uuid: string): Promise<CdekOrderResponse> {
    return parseOrder((await client.call('GET', `/orders/${encodeURIComponent(uuid)}`)).body);
  }

  /** The order by its CDEK number (or uuid); null when CDEK does not know it. */
  async function entityOf(providerNumber: string, uuid?: string | null): Promise<CdekOrderEntity | null> {
    try {
      const id = uuid ?? (isUuid(providerNumber) ? providerNumber : null);
      const reply = id ? await getOrder(id) : parseOrder((await client.call('GET', '/orders', { query: { cdek_number: providerNumber } })).body);
      return reply.entity ?? null;
    } catch (error) {
      if (error instanceof CdekApiError && error.has(...notFoundCodes)) return null;
      throw translate(error);
    }
  }

  const registeredAt = (entity: CdekOrderEntity | undefined) => {
    const first = entity?.statuses.filter((s) => !s.deleted && (s.code === 'ACCEPTED' || s.code === 'CREATED')).map((s) => parseCdekDate(s.date_time)).filter((t) => !Number.isNaN(t));
    return first?.length ? Math.min(...first) : null;
  };

  /** Waits (bounded) until CDEK has checked the order: its numbers, or a refusal with CDEK's messages. */
  async function settle(uuid: string): Promise<Registration> {
    let last: MessageParam = 'ACCEPTED';
    for (const delay of pollDelays) {
      await sleep(delay);
      let reply: CdekOrderResponse;
      try {
        reply = await getOrder(uuid);
      } catch (error) {
        // A hiccup while polling is not an answer; a fresh order may also not be visible for a moment.
        if (error instanceof ProviderUnavailableError) continue;
        if (error instanceof CdekApiError && error.has(...notFoundCodes)) continue;
        throw translate(error);
      }
      const outcome = createOutcome(reply);
      if (outcome.state === 'invalid') throw new ProviderRejectedError(describeErrors(outcome.errors), fieldErrorsFrom(outcome.errors), outcome.errors[0]?.code);
      if (outcome.state === 'successful' && outcome.registration) return { ...outcome.registration, registeredAt: registeredAt(reply.entity) };
      last = outcome.state === 'successful' ? message('cdek.successfulNoNumber') : 'ACCEPTED';
    }
    throw new ProviderUnavailableError(said('provider.notFinishedOrder', { service: CDEK, number: uuid, state: last }));
  }

  async function find(request: ShipmentRequest): Promise<Registration | null> {
    let reply: CdekOrderResponse;
    try {
      reply = parseOrder((await client.call('GET', '/orders', { query: { im_number: request.clientNumber } })).body);
    } catch (error) {
      if (error instanceof CdekApiError && error.has(...notFoundCodes)) return null;
      // Any other answer is no proof the order is absent: never re-send on a doubt.
      if (error instanceof CdekApiError) throw new ProviderUnavailableError(said('provider.lookupFailed', { service: CDEK, number: request.clientNumber, reason: error.message }));
      throw translate(error);
    }
    const outcome = createOutcome(reply);
    if (outcome.state === 'invalid') return null; // CDEK refused that one; sending again gets a fresh verdict
    const code = currentStatusCode(reply.entity?.statuses ?? []);
    if (code === 'REMOVED') return null;
    if (code && finalCodes.has(code)) {
      throw new ProviderRejectedError(
        said('provider.duplicateNumber', { service: CDEK, number: request.clientNumber, status: code }),
        [{ field: 'order.clientNumber', ...said('provider.duplicateNumberField', { service: CDEK, status: code }) }],
        DUPLICATE,
      );
    }
    if (outcome.state === 'successful' && outcome.registration) return { ...outcome.registration, registeredAt: registeredAt(reply.entity) };
    return settle(outcome.uuid);
  }

  async function register(request: ShipmentRequest): Promise<Registration> {
    const { points, split } = await bodyParts(request.order);
    const body = toCdekOrder(request.order, points, split);
    let reply: CdekOrderResponse;
    try {
      reply = parseOrder((await client.call('POST', '/orders', { body })).body);
    } catch (error) {
      if (error instanceof CdekApiError && error.has(DUPLICATE)) {
        // CDEK has this number already: ours from a lost reply is adopted, anything else is refused.
        const existing = await find(request);
        if (existing) return existing;
      }
      throw translate(error);
    }
    const outcome = createOutcome(reply);
    if (outcome.state === 'invalid') throw new ProviderRejectedError(describeErrors(outcome.errors), fieldErrorsFrom(outcome.errors), outcome.errors[0]?.code);
    if (outcome.state === 'successful' && outcome.registration) return { ...outcome.registration, registeredAt: registeredAt(reply.entity) };
    return settle(outcome.uuid);
  }

  async function update(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const { points, split } = await bodyParts(request.order);
    const body = toCdekOrderUpdate(request.order, points, split, providerNumber);
    let reply: CdekOrderResponse;
    try {
      reply = parseOrder((await client.call('PATCH', '/orders', { body })).body);
    } catch (error) {
      if (error instanceof CdekApiError && error.has('v2_update_forbidden', 'v2_entity_has_final_status')) {
        throw new ProviderRejectedError(
          said('provider.noChangesNow', { service: CDEK, number: providerNumber, code: error.code ?? '' }),
          fieldErrorsFrom(error.errors),
          error.code,
        );
      }
      throw translate(error);
    }
    const requestUuid = reply.requests.find((r) => r.type === 'UPDATE')?.request_uuid ?? reply.requests[0]?.request_uuid;
    const uuid = reply.entity?.uuid;
    if (!requestUuid || !uuid) return;
    // The change is checked asynchronously too: wait (bounded) for its verdict.
    for (const delay of pollDelays) {
      await sleep(delay);
      let state: CdekOrderResponse;
      try {
        state = await getOrder(uuid);
      } catch (error) {
        if (error instanceof ProviderUnavailableError) continue;
        throw translate(error);
      }
      const mine = state.requests.find((r) => r.request_uuid === requestUuid);
      if (!mine || mine.state === 'SUCCESSFUL') return;
      if (mine.state === 'INVALID') throw new ProviderRejectedError(describeErrors(mine.errors), fieldErrorsFrom(mine.errors), mine.errors[0]?.code);
    }
    throw new ProviderUnavailableError(said('provider.notFinishedChange', { service: CDEK, number: providerNumber }));
  }

  async function mustExist(providerNumber: string): Promise<CdekOrderEntity> {
    const entity = await entityOf(providerNumber);
    if (!entity) throw new ProviderRejectedError(said('provider.unknownOrder', { service: CDEK, number: providerNumber }), [], 'v2_entity_not_found');
    return entity;
  }

  async function deleteAtCdek(entity: CdekOrderEntity) {
    try {
      await client.call('DELETE', `/orders/${encodeURIComponent(entity.uuid)}`);
    } catch (error) {
      throw translate(error);
    }
  }

  /** Cancels: an order not yet handed over (CREATED) is deleted, one on its way is refused (returned to the sender). Repeating it is harmless. */
  async function cancel(providerNumber: string): Promise<void> {
    const entity = await mustExist(providerNumber);
    const last = latestStatus(entity.statuses);
    const code = last?.code ?? null;
    if (code === 'REMOVED') return;
    if (code === 'NOT_DELIVERED' && String(last?.reason_code ?? '') === REFUSAL_REASON) return;
    if (code && finalCodes.has(code)) {
      throw new ProviderRejectedError(said('provider.cancelTooLate', { service: CDEK, number: providerNumber, status: code }), [], 'v2_entity_has_final_status');
    }
    if (code === 'ACCEPTED' || code === null) throw new ProviderUnavailableError(said('provider.stillChecking', { service: CDEK, number: providerNumber }));
    if (code === 'CREATED') return deleteAtCdek(entity);
    try {
      await client.call('POST', `/orders/${encodeURIComponent(entity.uuid)}/refusal`);
    } catch (error) {
      throw translate(error);
    }
  }

  /** Deletes an order CDEK has not received yet (status CREATED); later it must be canceled instead. Repeating it is harmless. */
  async function remove(providerNumber: string): Promise<void> {
    const entity = await mustExist(providerNumber);
    const code = currentStatusCode(entity.statuses);
    if (code === 'REMOVED') return;
    if (code !== 'CREATED') {
      throw new ProviderRejectedError(
        said('provider.deleteOnlyNew', { service: CDEK, number: providerNumber, status: code ?? 'unknown' }),
        [],
        code ?? undefined,
      );
    }
    await deleteAtCdek(entity);
  }

  async function track(shipments: TrackedShipment[]): Promise<Map<string, ProviderStatus[]>> {
    return trackEach(
      shipments,
      async (s) => {
        const entity = await entityOf(s.providerNumber, s.additionalProviderNumber);
        return entity ? mapStatuses(entity.statuses) : null;
      },
      options.trackConcurrency,
    );
  }

  // ------------------------------------------------------------ reference data and documents

  async function calculate(req: CdekCalcRequest): Promise<CalculatorTariff[]> {
    const body = {
      type: 1,
      from_location: toCdekLocation(req.from),
      to_location: toCdekLocation(req.to),
      packages: req.places.map((p) => ({ weight: Math.max(1, Math.round(p.weight)), length: p.length, width: p.width, height: p.height })),
    };
    try {
      const reply = await client.call('POST', '/calculator/tarifflist', { body });
      const tariffs = tariffsFromTariffList(cdekTariffListSchema.parse(reply.body));
      return req.tariffIds?.length ? tariffs.filter((t) => req.tariffIds!.includes(t.tariffId)) : tariffs;
    } catch (error) {
      throw translate(error);
    }
  }

  async function estimatedIntervals(req: { from: CalcAddress; to: CalcAddress; tariffId: number; pickupAt?: number }): Promise<ToInterval[]> {
    const body = {
      date_time: formatCdekDate(req.pickupAt ?? clock.now()),
      from_location: toCdekLocation(req.from),
      to_location: toCdekLocation(req.to),
      tariff_code: req.tariffId,
    };
    try {
      const reply = await client.call('POST', '/delivery/estimatedIntervals', { body });
      return intervalsFromCdek(cdekIntervalsSchema.parse(reply.body));
    } catch (error) {
      throw translate(error);
    }
  }

  /**
   * One of CDEK's asynchronous print forms for up to 100 orders (by CDEK uuid) as one PDF: barcode labels
   * (/print/barcodes) or the orders' waybills (/print/orders). Created, polled until READY, downloaded.
   */
  async function printForm(form: 'barcodes' | 'orders', orderUuids: string[], extra: Record<string, unknown> = {}): Promise<Uint8Array> {
    const what = message(form === 'barcodes' ? 'provider.what.labels' : 'provider.what.waybills');
    if (orderUuids.length === 0 || orderUuids.length > 100) throw new ProviderRejectedError(said('provider.printCount', { service: CDEK, what }));
    try {
      const created = cdekPrintFormSchema.parse((await client.call('POST', `/print/${form}`, { body: { orders: orderUuids.map((order_uuid) => ({ order_uuid })), ...extra } })).body);
      const uuid = created.entity.uuid;
      for (const delay of [0, ...pollDelays]) {
        await sleep(delay);
        let state;
        try {
          state = cdekPrintFormSchema.parse((await client.call('GET', `/print/${form}/${encodeURIComponent(uuid)}`)).body);
        } catch (error) {
          if (error instanceof ProviderUnavailableError) continue;
          throw error;
        }
        const codes = state.entity.statuses.map((s) => s.code);
        if (codes.includes('INVALID')) throw new ProviderRejectedError(said('provider.printInvalid', { service: CDEK, what, uuid }));
        if (!codes.includes('READY')) continue;
        const pdf = await client.bytes(`/print/${form}/${encodeURIComponent(uuid)}.pdf`);
        if (new TextDecoder().decode(pdf.slice(0, 5)) !== '%PDF-') throw new ProviderUnavailableError(said('provider.printNotPdf', { service: CDEK, what }));
        return pdf;
      }
      throw new ProviderUnavailableError(said('provider.printNotReady', { service: CDEK, what, uuid }));
    } catch (error) {
      throw translate(error);
    }
  }

  /** Barcode labels of up to 100 orders (by CDEK uuid) as one PDF. */
  const barcodesPdf = (orderUuids: string[], format: 'A4' | 'A5' | 'A6' | 'A7' = 'A6') => printForm('barcodes', orderUuids, { format });
  /** CDEK knows its orders by the uuid registration keeps as additionalProviderNumber. */
  const uuidsOf = (shipments: TrackedShipment[]) => shipments.map((s) => s.additionalProviderNumber ?? s.providerNumber);

  return {
    info,
    check: checkOf(prepare),
    register,
    find,
    update,
    cancel: (providerNumber: string) => cancel(providerNumber),
    remove: (providerNumber: string) => remove(providerNumber),
    track,
    calculate,
    estimatedIntervals,
    courierCalls: cdekCourierCalls(client, { delaysMs: pollDelays, sleep }),
    rates: cdekRates(calculate),
    intervals: cdekIntervals(estimatedIntervals),
    barcodesPdf,
    labels: async (shipments: TrackedShipment[], format: 'pdf' | 'zpl') => {
      if (format !== 'pdf') throw new ProviderRejectedError(said('provider.pdfOnly', { service: CDEK }));
      return barcodesPdf(uuidsOf(shipments));
    },
    /** The handover papers are CDEK's own waybills of the orders (print form /print/orders), one copy each. */
    handoverAct: (shipments: TrackedShipment[]) => printForm('orders', uuidsOf(shipments), { copy_count: 1 }),
    /** Its offices and parcel tariffs, for lists/ to store (the adapter never writes them). */
    referenceData: { points: cdekOfficePages(client, options.officesPageSize), tariffs: cdekTariffRecords },
    /** "Test connection": a token, then one cheap call. */
    async testConnection(): Promise<{ expiresInSeconds: number }> {
      const token = await client.authenticate();
      try {
        const reply = await client.call('GET', '/location/cities', { query: { country_codes: 'RU', size: 1 } });
        if (!Array.isArray(reply.body) || (reply.body.length > 0 && !cdekCitySchema.safeParse(reply.body[0]).success)) {
          throw new ProviderUnavailableError(said('provider.cityLookupForm', { service: CDEK }));
        }
      } catch (error) {
        throw translate(error);
      }
      return token;
    },
  } satisfies Carrier & Record<string, unknown>;
}

export type CdekProvider = ReturnType<typeof createCdekProvider>;
