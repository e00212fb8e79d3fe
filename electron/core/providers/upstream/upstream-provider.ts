import { unreadableAnswer } from '../service-failure';
import { ZodError, type z } from 'zod';
import type { CarrierOperation, ProviderInfo } from '../../../../shared/contract/providers';
import { mergePdfs } from '../../print/merge';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { IntervalRequest, TariffSlots } from '../../intervals/interval-source';
import {
  ProviderRejectedError, ProviderUnavailableError, type Carrier, type ProviderStatus, type Registration, type ShipmentRequest,
  type TrackedShipment,
} from '../provider';
import { courierCallCanceledSchema, courierCallCreatedSchema } from '../../../../shared/schemas/courier-call';
import type { CourierCalls } from '../courier-call';
import type { UpstreamClient } from './client';
import { UpstreamApiError, upstreamCodes } from './errors';
import { message, said, type MessageParam } from '../../../../shared/messages';
import {
  clientNumberTaken, courierCallFromRemote, historyFromRemote, quantityDeliveredOf, quotesFromRemote, refusalFrom, registrationFrom, sameShipment, slotsFromRemote,
  stageOf, statusFromRemote, statusStamp, toRemoteCalculation, toRemoteCourierCall, toRemoteIntervalsRequest, toRemoteOrder,
} from './mapping';
import {
  calculatorSchema, createdSchema, historySchema, intervalsSchema, labelsAnswerSchema, orderDetailSchema, statusesSchema, statusResultSchema, waybillsAnswerSchema,
  type RemoteOrderDetail,
  type RemoteStatus, type RemoteStatusResult,
} from './wire';
import { waitBetweenCalls } from '../between-calls';

/** Knobs of the upstream adapters (the tests shorten the waits and pass their own fetch). */
export interface UpstreamTuning {
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  timeoutMs?: number;
  onCall?: (call: { method: string; path: string; status?: number; failure?: 'timeout' | 'network'; ms: number }) => void;
  /**
   * Pauses while the upstream transfers an order (after POST and PUT); their count bounds the wait. Past
   * it the call throws ProviderUnavailableError and the outbox's next attempt looks the order up first.
   */
  pollDelaysMs?: number[];
  /** Pauses after a cancel or delete, watching for the upstream's delivery service refusing it. */
  confirmDelaysMs?: number[];
  sleep?: (ms: number) => Promise<void>;
  /** Parallel history requests while tracking. */
  trackConcurrency?: number;
  /** Rows per page when syncing the upstream's lists. */
  pageSize?: number;
}

export const defaultPollDelaysMs = [250, 500, 1000, 2000];
export const defaultConfirmDelaysMs = [250, 750];

/** The interface's bound of POST /orders/statuses and of one statusHistory page. */
const STATUS_BATCH = 100;
const HISTORY_PAGE = 100;
const HISTORY_MAX_OFFSET = 5000;

type Found = { kind: 'none' } | { kind: 'cleared' } | { kind: 'foreign'; orderId: string } | { kind: 'ours'; orderId: string };

/**
 * One upstream account (a connection): the transfer of orders to it and their tracking. Each of the
 * upstream's delivery services becomes a Carrier here through `service()`; they share the
 * client and what tracking remembers.
 *
 * The upstream takes an order at once (orderId) and transfers it to its delivery service afterwards
 * (`uploading` → `uploaded` / `uploadingError`), so register and update wait for that, bounded.
 * A lost reply is never a duplicate: a re-send looks the order up by clientNumber first (find), and a
 * POST the upstream refuses as "clientNumber must be unique" adopts our own order it finds there.
 */
export function createUpstreamAccount(options: { connectionId: number; client: UpstreamClient; tuning?: UpstreamTuning }) {
  const { connectionId, client } = options;
  const tuning = options.tuning ?? {};
  const pollDelays = tuning.pollDelaysMs ?? defaultPollDelaysMs;
  const confirmDelays = tuning.confirmDelaysMs ?? defaultConfirmDelaysMs;
  const sleep = tuning.sleep ?? waitBetweenCalls;
  /** Remote orderId → stamp of the status last read with its whole history: unchanged means no history call. */
  const tracked = new Map<string, string>();

  function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProviderUnavailableError(said('provider.upstreamUnreadable', { what, detail: `${issue?.path.join('.')}: ${issue?.message}` }));
    }
    return parsed.data;
  }

  /** An upstream refusal → ours with its words; anything else passes unchanged. */
  function translate(error: unknown): unknown {
    if (error instanceof UpstreamApiError) return refusalFrom(error);
    if (error instanceof ZodError) return unreadableAnswer(message('service.upstreamAny'), error);
    return error;
  }

  const isNotFound = (error: unknown) => error instanceof UpstreamApiError && error.httpStatus === 404;
  const path = (orderId: string, tail = '') => `/orders/${encodeURIComponent(orderId)}${tail}`;

  function prepare(remoteKey: string, request: ShipmentRequest) {
    const mapped = toRemoteOrder(request.order, connectionId, remoteKey);
    if ('errors' in mapped) throw new ProviderRejectedError(mapped.errors.map((e) => `${e.field}: ${e.message}`).join('; '), mapped.errors);
    return mapped.body;
  }

  const currentStatus = async (orderId: string): Promise<RemoteStatusResult> =>
    parse(statusResultSchema, await client.call('GET', path(orderId, '/status')), 'GET /orders/{id}/status');

  const detail = async (orderId: string): Promise<RemoteOrderDetail> => parse(orderDetailSchema, await client.call('GET', path(orderId)), 'GET /orders/{id}');

  /** The upstream's order with this clientNumber (the live one, else its newest canceled one); null when it has none. */
  async function lookup(clientNumber: string): Promise<RemoteStatusResult | null> {
    try {
      return parse(statusResultSchema, await client.call('GET', '/orders/status', { query: { clientNumber } }), 'GET /orders/status');
    } catch (error) {
      if (error instanceof UpstreamApiError && error.httpStatus === 404 && error.is(upstreamCodes.orderNotFound, upstreamCodes.notFound)) return null;
      // Any other answer is no proof the order is absent: never send it again on a doubt.
      if (error instanceof UpstreamApiError) throw new ProviderUnavailableError(said('provider.lookupFailed', { service: message('service.upstreamAny'), number: clientNumber, reason: error.message }));
      throw error;
    }
  }

  /** Deletes an order at the upstream; one it no longer has is fine. */
  async function deleteRemote(orderId: string): Promise<void> {
    try {
      await client.call('DELETE', path(orderId));
    } catch (error) {
      if (isNotFound(error)) return;
      throw translate(error);
    }
  }

  /**
   * What the upstream holds under our clientNumber. A failed transfer without a delivery number holds
   * nothing: it is deleted so the number is free again (`cleared`). A live order is ours only when its
   * data matches what we send (service, recipient's phone, weight).
   */
  async function existing(remoteKey: string, request: ShipmentRequest): Promise<Found> {
    const found = await lookup(request.clientNumber);
    if (!found) return { kind: 'none' };
    const stage = stageOf(found.status);
    if (stage.stage === 'canceled') return { kind: 'none' };
    const orderId = found.orderInfo.orderId;
    if (!orderId) throw new ProviderUnavailableError(said('provider.upstreamLookupNoId', { number: request.clientNumber }));
    if (stage.stage === 'failed' && !found.orderInfo.providerNumber) {
      await deleteRemote(orderId);
      return { kind: 'cleared' };
    }
    return sameShipment(request.order, remoteKey, await detail(orderId)) ? { kind: 'ours', orderId } : { kind: 'foreign', orderId };
  }

  /**
   * Waits (bounded) until the upstream has transferred the order: its numbers once the delivery service
   * registered it, a refusal with the upstream's description when it failed (the failed order is deleted
   * there: it holds nothing, and the clientNumber is free for the corrected order).
   */
  async function settle(orderId: string, delays: number[]): Promise<Registration> {
    let last: MessageParam = 'uploading';
    for (const delay of delays) {
      await sleep(delay);
      let current: RemoteStatusResult;
      try {
        current = await currentStatus(orderId);
      } catch (error) {
        // A hiccup while waiting is not an answer; nor is an order not visible yet.
        if (error instanceof ProviderUnavailableError || isNotFound(error)) continue;
        throw translate(error);
      }
      const stage = stageOf(current.status);
      if (stage.stage === 'pending') continue;
      if (stage.stage === 'failed' && !current.orderInfo.providerNumber) {
        await deleteRemote(orderId).catch(() => {}); // best effort; a later create clears it anyway
        throw new ProviderRejectedError(stage.description, [], stage.providerCode ?? current.status.errorCode ?? undefined);
      }
      if (stage.stage === 'canceled') {
        throw new ProviderRejectedError(said('provider.upstreamCanceledFirst', { orderId }), [], upstreamCodes.alreadyCanceled);
      }
      let info: RemoteOrderDetail;
      try {
        info = await detail(orderId);
      } catch (error) {
        if (error instanceof ProviderUnavailableError) continue;
        throw translate(error);
      }
      const registration = registrationFrom(orderId, info, current.status);
      if (registration) return registration;
      last = message('provider.upstreamNoNumberYet', { status: current.status.key });
    }
    throw new ProviderUnavailableError(said('provider.upstreamStillTransferring', { orderId, state: last }));
  }

  async function register(remoteKey: string, request: ShipmentRequest): Promise<Registration> {
    const body = prepare(remoteKey, request);
    let orderId: string | null = null;
    for (let round = 0; orderId === null; round++) {
      try {
        orderId = parse(createdSchema, await client.call('POST', '/orders', { body }), 'POST /orders').orderId;
      } catch (error) {
        if (round > 0 || !(error instanceof UpstreamApiError) || !clientNumberTaken(error)) throw translate(error);
        // The upstream has this clientNumber: our own order from a lost reply is adopted, a failed one cleared.
        const found = await existing(remoteKey, request);
        if (found.kind === 'ours') return settle(found.orderId, [0, ...pollDelays]);
        if (found.kind !== 'cleared') {
          const other = found.kind === 'foreign' ? found.orderId : undefined;
          throw refusalFrom(error, other === undefined ? undefined : (reason) => said('provider.upstreamHoldsOther', { orderId: other, number: request.clientNumber, reason }));
        }
      }
    }
    return settle(orderId, pollDelays);
  }

  async function find(remoteKey: string, request: ShipmentRequest): Promise<Registration | null> {
    const found = await existing(remoteKey, request);
    if (found.kind !== 'ours') return null;
    try {
      return await settle(found.orderId, [0, ...pollDelays]);
    } catch (error) {
      // It failed at the upstream meanwhile (and was cleared): the upstream holds nothing of ours.
      if (error instanceof ProviderRejectedError) return null;
      throw error;
    }
  }

  /**
   * The upstream's orderId of our registered order: kept as additionalProviderNumber at registration; an
   * order registered before that was known is looked up by clientNumber and checked by its number.
   */
  async function remoteOrderId(providerNumber: string, request: ShipmentRequest): Promise<string> {
    const kept = request.additionalProviderNumber;
    if (kept && (!request.providerNumber || request.providerNumber === providerNumber)) return kept;
    const found = await lookup(request.clientNumber);
    if (found?.orderInfo.orderId && found.orderInfo.providerNumber === providerNumber) return found.orderInfo.orderId;
    throw new ProviderRejectedError(said('provider.upstreamNoOrder', { number: providerNumber }), [], upstreamCodes.orderNotFound);
  }

  async function update(remoteKey: string, providerNumber: string, request: ShipmentRequest): Promise<void> {
    const body = prepare(remoteKey, request);
    const orderId = await remoteOrderId(providerNumber, request);
    let before: RemoteStatus;
    try {
      before = (await currentStatus(orderId)).status;
      await client.call('PUT', path(orderId), { body });
    } catch (error) {
      throw translate(error);
    }
    // The upstream transfers the change like an order: wait (bounded) for its delivery service's verdict.
    for (const delay of pollDelays) {
      await sleep(delay);
      let now: RemoteStatus;
      try {
        now = (await currentStatus(orderId)).status;
      } catch (error) {
        if (error instanceof ProviderUnavailableError) continue;
        throw translate(error);
      }
      const stage = stageOf(now);
      if (stage.stage === 'pending') continue;
      if (stage.stage === 'failed') {
        if (statusStamp(now) === statusStamp(before)) continue; // the verdict on an earlier change: not ours yet
        throw new ProviderRejectedError(stage.description, [], stage.providerCode);
      }
      return;
    }
    throw new ProviderUnavailableError(said('provider.upstreamChangeTransferring', { orderId }));
  }

  /**
   * After the upstream accepted a cancel or delete, its own delivery service may still refuse it (the
   * upstream then shows `problem` and keeps the order). Watched for a short, bounded time.
   */
  async function confirm(orderId: string, what: 'cancel' | 'delete'): Promise<void> {
    for (const delay of confirmDelays) {
      await sleep(delay);
      let now: RemoteStatus;
      try {
        now = (await currentStatus(orderId)).status;
      } catch (error) {
        if (isNotFound(error) || error instanceof ProviderUnavailableError) continue; // deleted: as asked
        throw translate(error);
      }
      if (now.key === 'problem') {
        throw new ProviderRejectedError(now.description || said('provider.upstreamServiceRefused', { what: message(what === 'cancel' ? 'provider.verb.cancel' : 'provider.verb.delete') }), [], now.providerCode || undefined);
      }
    }
  }

  /** GET /orders/{id}/cancel. Already canceled (040081) is done; cannot cancel (040306) and the rest are refusals. */
  async function cancel(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const orderId = await remoteOrderId(providerNumber, request);
    try {
      await client.call('GET', path(orderId, '/cancel'));
    } catch (error) {
      if (error instanceof UpstreamApiError && error.is(upstreamCodes.alreadyCanceled)) return;
      throw translate(error);
    }
    await confirm(orderId, 'cancel');
  }

  /** DELETE /orders/{id}. One the upstream no longer has is done (a repeated delete). */
  async function remove(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const orderId = await remoteOrderId(providerNumber, request);
    try {
      await client.call('DELETE', path(orderId));
    } catch (error) {
      if (error instanceof UpstreamApiError && error.httpStatus === 404 && error.is(upstreamCodes.orderNotFound)) return;
      throw translate(error);
    }
    await confirm(orderId, 'delete');
  }

  /** The whole history of one upstream order, newest first (statusHistory pages of 100, up to the interface's offset bound). */
  async function historyOf(orderId: string): Promise<RemoteStatus[]> {
    const rows: RemoteStatus[] = [];
    for (let offset = 0; offset <= HISTORY_MAX_OFFSET; offset += HISTORY_PAGE) {
      const page = parse(
        historySchema,
        await client.call('GET', `/v1${path(orderId, '/statusHistory')}`, { query: { offset, limit: HISTORY_PAGE } }),
        'GET /v1/orders/{id}/statusHistory',
      );
      rows.push(...page.rows);
      if (page.rows.length < HISTORY_PAGE || (page.meta && rows.length >= page.meta.total)) break;
    }
    return rows;
  }

  /**
   * Statuses of registered orders: POST /orders/statuses in batches of 100 tells which changed since the
   * last look; only those are asked for their whole history (the statuses passed between two looks).
   */
  async function track(shipments: TrackedShipment[]): Promise<Map<string, ProviderStatus[]>> {
    const result = new Map<string, ProviderStatus[]>();
    const byRemote = new Map<string, TrackedShipment>();
    for (const s of shipments) if (s.additionalProviderNumber) byRemote.set(s.additionalProviderNumber, s);
    const ids = [...byRemote.keys()];
    const changed: string[] = [];
    let answered = 0;
    let failures = 0;
    let firstFailure: unknown = null;

    for (let i = 0; i < ids.length; i += STATUS_BATCH) {
      const chunk = ids.slice(i, i + STATUS_BATCH);
      try {
        const answer = parse(statusesSchema, await client.call('POST', '/orders/statuses', { body: { orderIds: chunk } }), 'POST /orders/statuses');
        answered++;
        for (const r of answer.succeedOrders) {
          const s = byRemote.get(r.orderInfo.orderId);
          if (!s) continue;
          if (tracked.get(r.orderInfo.orderId) !== statusStamp(r.status)) changed.push(r.orderInfo.orderId);
          else if (r.status.key !== 'uploading') {
            const current = statusFromRemote(r.status);
            if (current) result.set(s.providerNumber, [current]);
          }
        }
      } catch (error) {
        // An upstream without the bulk method is asked order by order.
        if (error instanceof UpstreamApiError && error.httpStatus === 404) changed.push(...chunk);
        else {
          failures++;
          firstFailure ??= error;
        }
      }
    }

    const queue = [...changed];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const s = byRemote.get(id)!;
        try {
          const rows = await historyOf(id);
          const statuses = historyFromRemote(rows);
          const partial = statuses.find((st) => st.key === 'partialReturn');
          if (partial) partial.quantityDelivered = quantityDeliveredOf(await detail(id));
          result.set(s.providerNumber, statuses);
          answered++;
          if (rows[0]) tracked.set(id, statusStamp(rows[0]));
        } catch (error) {
          if (isNotFound(error)) continue; // gone at the upstream: nothing to report
          failures++;
          firstFailure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(tuning.trackConcurrency ?? 4, queue.length)) }, worker));
    // The upstream could not be asked at all: the refresher counts these orders as not asked this time.
    if (failures > 0 && answered === 0) throw firstFailure;
    return result;
  }

  async function intervals(remoteKey: string, request: IntervalRequest): Promise<TariffSlots[]> {
    const body = toRemoteIntervalsRequest(request, remoteKey);
    try {
      return slotsFromRemote(connectionId, remoteKey, parse(intervalsSchema, await client.call('POST', '/calculator/intervals', { body }), 'POST /calculator/intervals'));
    } catch (error) {
      throw translate(error);
    }
  }

  async function quote(remoteKey: string, request: QuoteRequest): Promise<Quote[]> {
    const body = toRemoteCalculation(request, remoteKey);
    if (!body) return [];
    try {
      return quotesFromRemote(connectionId, remoteKey, parse(calculatorSchema, await client.call('POST', '/calculator', { body }), 'POST /calculator'));
    } catch (error) {
      throw translate(error);
    }
  }

  /** Courier calls passed through: POST /courierCall with the upstream's order ids, cancel by its call id. */
  function courierCalls(remoteKey: string): CourierCalls {
    return {
      async create(request) {
        const orderIds = await Promise.all(request.shipments.map((s) => s.additionalProviderNumber ?? remoteOrderId(s.providerNumber, s.request)));
        try {
          const answer = await client.call('POST', '/courierCall', { body: toRemoteCourierCall(request, remoteKey, orderIds) });
          return courierCallFromRemote(parse(courierCallCreatedSchema, answer, 'POST /courierCall'));
        } catch (error) {
          throw translate(error);
        }
      },
      async cancel(call) {
        const id = call.additionalProviderNumber;
        if (!id) throw new ProviderRejectedError(said('provider.upstreamCallUnknown', { number: String(call.providerNumber) }));
        try {
          parse(courierCallCanceledSchema, await client.call('POST', `/courierCall/${encodeURIComponent(id)}/cancel`), 'POST /courierCall/{id}/cancel');
        } catch (error) {
          if (error instanceof UpstreamApiError && error.is(upstreamCodes.alreadyCanceled)) return;
          throw translate(error);
        }
      },
    };
  }

  /** Our orders' ids at the upstream, as the interface takes them (numbers where they are). */
  const remoteIds = (shipments: TrackedShipment[]) =>
    Promise.all(shipments.map(async (s) => {
      const id = s.additionalProviderNumber ?? (await remoteOrderId(s.providerNumber, s.request));
      return /^\d{1,15}$/.test(id) ? Number(id) : id;
    }));

  /** The upstream left some orders out: the whole run is refused with its reasons, so none is claimed printed. */
  const leftOut = (what: 'labels' | 'handoverAct', failed: { orderId: string; message: string }[]) =>
    new ProviderRejectedError(said('provider.upstreamLeftOut', { what: message(`provider.what.${what}`), count: failed.length, list: failed.map((f) => `${f.orderId}: ${f.message}`).join('; ') }));

  /** Labels passed through: the upstream's POST /orders/labels, then its file. */
  async function labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array> {
    const orderIds = await remoteIds(shipments);
    try {
      const answer = parse(labelsAnswerSchema, await client.call('POST', '/orders/labels', { body: { orderIds, format } }), 'POST /orders/labels');
      if (answer.failedOrders.length || !answer.url) throw leftOut('labels', answer.failedOrders);
      return await client.download(answer.url);
    } catch (error) {
      throw translate(error);
    }
  }

  /** The handover act passed through: the upstream's POST /orders/waybills, its files one after another. */
  async function handoverAct(shipments: TrackedShipment[]): Promise<Uint8Array> {
    const orderIds = await remoteIds(shipments);
    try {
      const answer = parse(waybillsAnswerSchema, await client.call('POST', '/orders/waybills', { body: { orderIds } }), 'POST /orders/waybills');
      if (answer.failedOrders.length || answer.waybillItems.length === 0) throw leftOut('handoverAct', answer.failedOrders);
      const files = [];
      for (const item of answer.waybillItems) files.push(await client.download(item.file));
      return await mergePdfs(files);
    } catch (error) {
      throw translate(error);
    }
  }

  /** One of the upstream's delivery services as ours. `info` is read on every use: a catalogue sync changes it in place. */
  function service(remoteKey: string, info: () => ProviderInfo): Carrier {
    const offers = (op: CarrierOperation) => info().capabilities.operations?.includes(op) ?? true;
    return {
      get info() {
        return info();
      },
      async check(order) {
        const mapped = toRemoteOrder(order, connectionId, remoteKey);
        return 'errors' in mapped ? mapped.errors : [];
      },
      register: (request) => register(remoteKey, request),
      find: (request) => find(remoteKey, request),
      update: (providerNumber, request) => update(remoteKey, providerNumber, request),
      cancel: (providerNumber, request) => cancel(providerNumber, request),
      remove: (providerNumber, request) => remove(providerNumber, request),
      track,
      rates: (request) => quote(remoteKey, request),
      intervals: (request) => intervals(remoteKey, request),
      // An upstream that lists what its services do is believed; an older one is asked and answers for itself.
      ...(offers('courierCalls') ? { courierCalls: courierCalls(remoteKey) } : {}),
      ...(offers('labels') ? { labels } : {}),
      ...(offers('handoverActs') ? { handoverAct } : {}),
    };
  }

  return { connectionId, client, service, register, find, update, cancel, remove, track, intervals, quote };
}

export type UpstreamAccount = ReturnType<typeof createUpstreamAccount>;
