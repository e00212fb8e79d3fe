/**
 * A local fake of Yandex Delivery's "other day" platform (`/api/b2b/platform/...`), written from
 * shared/reference/carriers-ru.md and the platform's reference pages. Real HTTP on 127.0.0.1: a bearer token that a
 * test can revoke or let expire (answered 401 "Access denied"), offers priced and dated on the fake's clock,
 * confirmation that keeps the shop's number unique (400 "There already was request with such code…"), statuses that
 * advance over the fake's clock, lookups by id and by creation window, edits of the recipient and destination before
 * handover (request/edit), cancel with its three answers, pickup points
 * filtered by coordinate box, prices, door intervals, labels and handover acts as real PDFs, errors as
 * `{ code, message }`, and 429/5xx/hangs/lost replies on demand or at a seeded rate. It counts confirmed requests per
 * shop number so tests can assert "registered exactly once".
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { printForm, sendJson, sendPdf, startFakeHttp, type Exchange, type FaultOptions } from '../fake-http';

export const FAKE_YANDEX_TOKEN = 'y0_fake-yandex-delivery-token-0001';

export interface FakeYandexPoint {
  id: string;
  name: string;
  type: 'pickup_point' | 'terminal' | 'post_office';
  position: { latitude: number; longitude: number };
  address: { locality: string; region: string; street: string; house: string; full_address: string; postal_code: string };
  payment_methods: string[];
  available_for_dropoff: boolean;
  schedule: { time_zone: number; restrictions: { days: number[]; time_from: { hours: number; minutes: number }; time_to: { hours: number; minutes: number } }[] };
}

export interface FakeYandexOptions {
  /** The fake's clock (ms): offers, status timelines, token expiry. */
  now?: () => number;
  token?: string;
  /** When the token stops working on the fake's clock (Yandex tokens do not expire by time; a password change revokes them). */
  tokenExpiresAt?: number;
  points?: FakeYandexPoint[];
  /** Statuses a request reaches after it is confirmed (ms after confirmation), per last-mile policy. */
  timeline?: Partial<Record<'time_interval' | 'self_pickup', { afterMs: number; status: string }[]>>;
  faults?: FaultOptions;
}

/** Cities the fake can deliver to (its address recognition). */
export const fakeYandexCities = [
  { name: 'Москва', region: 'Москва', lat: 55.7558, lng: 37.6173, postal: '101000' },
  { name: 'Санкт-Петербург', region: 'Санкт-Петербург', lat: 59.9391, lng: 30.3159, postal: '190000' },
  { name: 'Новосибирск', region: 'Новосибирская область', lat: 55.0302, lng: 82.9204, postal: '630000' },
  { name: 'Екатеринбург', region: 'Свердловская область', lat: 56.8389, lng: 60.6057, postal: '620000' },
  { name: 'Сочи', region: 'Краснодарский край', lat: 43.5855, lng: 39.7231, postal: '354000' },
  { name: 'Мурманск', region: 'Мурманская область', lat: 68.9585, lng: 33.0827, postal: '183000' },
];

/** Deterministic points over the fake's cities: every 4th a locker, every 3rd takes parcels from shops, half take cards. */
export function generateYandexPoints(count: number): FakeYandexPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const city = fakeYandexCities[i % fakeYandexCities.length];
    const locker = i % 4 === 3;
    const house = String(i + 1);
    return {
      id: `ya-${String(i + 1).padStart(5, '0')}-${(i * 7919).toString(16)}`,
      name: `${locker ? 'Постамат' : 'Пункт выдачи'} Яндекс ${city.name} №${i + 1}`,
      type: locker ? 'terminal' : 'pickup_point',
      position: { latitude: Number((city.lat + ((i % 9) - 4) * 0.01).toFixed(5)), longitude: Number((city.lng + ((i % 7) - 3) * 0.01).toFixed(5)) },
      address: { locality: city.name, region: city.region, street: 'ул. Тестовая', house, full_address: `${city.name}, ул. Тестовая, ${house}`, postal_code: city.postal },
      payment_methods: locker ? ['already_paid'] : i % 2 === 0 ? ['already_paid', 'card_on_receipt', 'cash_on_receipt'] : ['already_paid'],
      available_for_dropoff: !locker && i % 3 === 0,
      schedule: { time_zone: 3, restrictions: [{ days: [1, 2, 3, 4, 5, 6, 7], time_from: { hours: 9, minutes: 0 }, time_to: { hours: 21, minutes: 0 } }] },
    };
  });
}

const HOUR = 60 * 60 * 1000;
const defaultTimeline = {
  time_interval: [
    { afterMs: 0, status: 'DRAFT' }, { afterMs: 0, status: 'VALIDATING' }, { afterMs: 60_000, status: 'CREATED' },
    { afterMs: 6 * HOUR, status: 'SORTING_CENTER_AT_START' }, { afterMs: 12 * HOUR, status: 'SORTING_CENTER_TRANSMITTED' },
    { afterMs: 24 * HOUR, status: 'DELIVERY_AT_START' }, { afterMs: 30 * HOUR, status: 'DELIVERY_TRANSPORTATION_RECIPIENT' },
    { afterMs: 32 * HOUR, status: 'DELIVERY_DELIVERED' },
  ],
  self_pickup: [
    { afterMs: 0, status: 'DRAFT' }, { afterMs: 0, status: 'VALIDATING' }, { afterMs: 60_000, status: 'CREATED' },
    { afterMs: 6 * HOUR, status: 'SORTING_CENTER_AT_START' }, { afterMs: 12 * HOUR, status: 'DELIVERY_TRANSPORTATION' },
    { afterMs: 24 * HOUR, status: 'DELIVERY_ARRIVED_PICKUP_POINT' }, { afterMs: 48 * HOUR, status: 'DELIVERY_DELIVERED' },
  ],
};

const descriptions: Record<string, string> = {
  DRAFT: 'Заказ создан', VALIDATING: 'Заявка находится на проверке', CREATED: 'Заказ создан и подтвержден',
  SORTING_CENTER_AT_START: 'Заказ поступил в точку приема', SORTING_CENTER_TRANSMITTED: 'Заказ доставляется до последней мили',
  DELIVERY_AT_START: 'Заказ находится в городе получателя', DELIVERY_TRANSPORTATION_RECIPIENT: 'Заказ доставляется клиенту',
  DELIVERY_TRANSPORTATION: 'Заказ в пути', DELIVERY_ARRIVED_PICKUP_POINT: 'Заказ доставлен в пункт выдачи',
  DELIVERY_DELIVERED: 'Заказ вручен клиенту', CANCELLED: 'Заказ отменен',
};

interface FakeOffer {
  id: string;
  body: Record<string, any>;
  min: number;
  max: number;
  priceKopecks: number;
  expiresAt: number;
}

interface FakeRequest {
  id: string;
  operatorId: string;
  body: Record<string, any>;
  createdAt: number;
  states: { at: number; status: string }[];
}

const BEFORE_HANDOVER = new Set(['DRAFT', 'VALIDATING', 'CREATED']);
const SETTLED = new Set(['DELIVERY_DELIVERED', 'CANCELLED']);
const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
const rub = (kopecks: number) => `${(kopecks / 100).toFixed(2)} RUB`;
const asMs = (v: unknown) => (typeof v === 'number' ? v * 1000 : typeof v === 'string' ? (/^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v)) : Number.NaN);
/** 00:00 Moscow time of the day `days` after the instant's Moscow day. */
const moscowMidnight = (ms: number, days: number) => Math.floor((ms + 3 * HOUR) / (24 * HOUR)) * 24 * HOUR - 3 * HOUR + days * 24 * HOUR;
const cityIn = (text: unknown) => (typeof text === 'string' ? fakeYandexCities.find((c) => text.includes(c.name)) : undefined);

export async function startFakeYandex(options: FakeYandexOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const tokens = new Set([options.token ?? FAKE_YANDEX_TOKEN]);
  let tokenExpiresAt = options.tokenExpiresAt ?? Number.POSITIVE_INFINITY;
  let points = options.points ?? generateYandexPoints(60);
  const timeline = { ...defaultTimeline, ...options.timeline };
  const offers = new Map<string, FakeOffer>();
  const requests = new Map<string, FakeRequest>();
  const byOperator = new Map<string, FakeRequest>();
  const registrations = new Map<string, number>();
  const counters = { unauthorized: 0, duplicateRefusals: 0, offersMade: 0, edits: 0 };
  let seq = 0;

  const error = (res: ServerResponse, status: number, code: string, message: string) => sendJson(res, status, { code, message });
  const pointById = (id: unknown) => points.find((p) => p.id === id);
  const reached = (r: FakeRequest) => r.states.filter((s) => s.at <= now());
  const current = (r: FakeRequest) => reached(r).at(-1)!.status;
  const state = (s: { at: number; status: string }) => ({ status: s.status, description: descriptions[s.status] ?? s.status, timestamp: Math.floor(s.at / 1000), timestamp_utc: utc(s.at) });
  const info = (r: FakeRequest) => ({ request_id: r.id, request: r.body, state: state(reached(r).at(-1)!), sharing_url: `https://dostavka.yandex.ru/route/${r.id}` });

  /** Checks a request body as the platform does; the first problem is answered. */
  function refusal(body: Record<string, any> | undefined): [number, string, string] | null {
    if (!body || typeof body !== 'object') return [400, 'bad_request', 'Request body is not JSON'];
    if (!body.info?.operator_request_id) return [400, 'bad_request', 'info.operator_request_id is required'];
    const source = body.source?.platform_station?.platform_id;
    const sourcePoint = pointById(source);
    if (!source || (sourcePoint && !sourcePoint.available_for_dropoff) || (!sourcePoint && !String(source).startsWith('warehouse-'))) return [400, 'bad_request', 'Cant get station id for point'];
    const destination = body.destination;
    if (destination?.type === 'platform_station') {
      const point = pointById(destination.platform_station?.platform_id);
      if (!point) return [400, 'bad_request', 'Cant get station id for point'];
      const pay = body.billing_info?.payment_method;
      if (pay && pay !== 'already_paid' && !point.payment_methods.includes(pay) && !(pay === 'cash_on_receipt' && point.payment_methods.includes('card_on_receipt'))) {
        return [400, 'bad_request', "Pickup point doesn't accept payment on delivery"];
      }
    } else if (destination?.type === 'custom_location') {
      if (!cityIn(destination.custom_location?.details?.full_address)) return [400, 'bad_request', 'Cannot parse destination info'];
    } else return [400, 'bad_request', 'destination.type must be platform_station or custom_location'];
    if (!Array.isArray(body.places) || body.places.length === 0) return [400, 'bad_request', 'places must not be empty'];
    if (!Array.isArray(body.items) || body.items.length === 0) return [400, 'bad_request', 'items must not be empty'];
    const barcodes = new Set(body.places.map((p: any) => p.barcode));
    if (barcodes.size !== body.places.length) return [400, 'bad_request', 'place barcodes must be unique'];
    if (body.items.some((i: any) => !barcodes.has(i.place_barcode))) return [400, 'bad_request', 'item place_barcode names no place'];
    if (body.items.some((i: any) => !Number.isInteger(i.billing_details?.unit_price) || !Number.isInteger(i.billing_details?.assessed_unit_price))) {
      return [400, 'bad_request', 'billing_details prices must be integers (kopecks)'];
    }
    if (body.places.some((p: any) => (p.physical_dims?.weight_gross ?? 0) > 30_000 || Math.max(p.physical_dims?.dx ?? 0, p.physical_dims?.dy ?? 0, p.physical_dims?.dz ?? 0) > 120)) {
      return [404, 'dimensions', 'Dimensions should not exceed limit'];
    }
    if (!body.recipient_info?.first_name || !body.recipient_info?.phone) return [400, 'bad_request', 'recipient_info.first_name and phone are required'];
    return null;
  }

  function priceOf(policy: string, weightGrams: number, codKopecks: number): number {
    const base = policy === 'self_pickup' ? 18_000 : 30_000;
    return base + Math.max(0, Math.ceil(weightGrams / 1000) - 1) * 2_000 + Math.round(codKopecks / 100);
  }

  /** Door offers: two intervals a day, pickup-point offers: one, for the next three days (Moscow time). */
  function windows(policy: string): { min: number; max: number }[] {
    const out: { min: number; max: number }[] = [];
    for (let day = 1; day <= 3; day++) {
      const midnight = moscowMidnight(now(), day);
      const hours = policy === 'self_pickup' ? [[9, 21]] : [[9, 13], [18, 22]];
      for (const [from, to] of hours) out.push({ min: midnight + from * HOUR, max: midnight + to * HOUR });
    }
    return out;
  }

  async function handle({ req, res, url, body }: Exchange) {
    const path = url.pathname.replace(/^\/api\/b2b\/platform/, '');
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7)) || now() >= tokenExpiresAt) {
      counters.unauthorized++;
      return error(res, 401, 'unauthorized', 'Access denied');
    }
    const b = (body ?? {}) as Record<string, any>;
    const method = req.method;

    if (method === 'POST' && path === '/offers/create') {
      const problem = refusal(body as Record<string, any>);
      if (problem) return error(res, ...problem);
      const weight = b.places.reduce((s: number, p: any) => s + (p.physical_dims?.weight_gross ?? 0), 0);
      const cod = b.billing_info?.payment_method === 'already_paid' ? 0 : b.items.reduce((s: number, i: any) => s + i.billing_details.unit_price * i.count, 0);
      const policy = b.destination.type === 'platform_station' ? 'self_pickup' : 'time_interval';
      const price = priceOf(policy, weight, cod);
      const made = windows(policy).map((w) => {
        const offer: FakeOffer = { id: `offer-${++seq}-${randomBytes(3).toString('hex')}`, body: b, min: w.min, max: w.max, priceKopecks: price, expiresAt: now() + 30 * 60_000 };
        offers.set(offer.id, offer);
        counters.offersMade++;
        return offer;
      });
      return sendJson(res, 200, {
        offers: made.map((o) => ({
          offer_id: o.id,
          expires_at: utc(o.expiresAt),
          offer_details: { delivery_interval: { min: utc(o.min), max: utc(o.max), policy }, pricing: rub(Math.round(o.priceKopecks / 1.2)), pricing_total: rub(o.priceKopecks) },
        })),
      });
    }

    if (method === 'POST' && path === '/offers/confirm') {
      const offer = offers.get(b.offer_id);
      if (!offer) return error(res, 404, 'not_found', 'Offer not found');
      if (now() >= offer.expiresAt) return error(res, 400, 'offer_expired', 'Offer is expired');
      const operatorId = String(offer.body.info.operator_request_id);
      const existing = byOperator.get(operatorId);
      if (existing) {
        counters.duplicateRefusals++;
        return error(res, 400, 'bad_request', `There already was request with such code within this employer, request_id: ${existing.id}`);
      }
      const policy = offer.body.destination.type === 'platform_station' ? 'self_pickup' : 'time_interval';
      const created = now();
      const request: FakeRequest = {
        id: `${randomBytes(16).toString('hex')}-udp`,
        operatorId,
        body: { ...offer.body, destination: { ...offer.body.destination, interval_utc: { from: utc(offer.min), to: utc(offer.max) } } },
        createdAt: created,
        states: timeline[policy].map((t) => ({ at: created + t.afterMs, status: t.status })),
      };
      requests.set(request.id, request);
      byOperator.set(operatorId, request);
      registrations.set(operatorId, (registrations.get(operatorId) ?? 0) + 1);
      offers.delete(offer.id);
      return sendJson(res, 200, { request_id: request.id });
    }

    if (method === 'GET' && (path === '/request/info' || path === '/request/history')) {
      const request = requests.get(url.searchParams.get('request_id') ?? '');
      if (!request) return error(res, 404, 'not_found', 'Request not found');
      if (path === '/request/info') return sendJson(res, 200, info(request));
      return sendJson(res, 200, { state_history: reached(request).map(state) });
    }

    if (method === 'POST' && path === '/requests/info') {
      const from = asMs(b.from);
      const to = asMs(b.to);
      const ids: string[] | undefined = Array.isArray(b.request_ids) && b.request_ids.length ? b.request_ids : undefined;
      if (!ids && (Number.isNaN(from) || Number.isNaN(to))) return error(res, 400, 'bad_request', 'from and to (or request_ids) are required');
      const list = [...requests.values()].filter((r) => (ids ? ids.includes(r.id) : r.createdAt >= from && r.createdAt <= to));
      return sendJson(res, 200, { requests: list.map(info) });
    }

    if (method === 'POST' && path === '/request/edit') {
      const request = requests.get(b.request_id);
      if (!request) return error(res, 404, 'not_found', 'Request not found');
      const status = current(request);
      if (!BEFORE_HANDOVER.has(status)) return error(res, 400, 'bad_request', `Request can not be edited in status ${status}`);
      if (!b.recipient_info?.first_name || !b.recipient_info?.phone) return error(res, 400, 'bad_request', 'recipient_info.first_name and phone are required');
      // The new destination is checked as a new request's would be.
      const problem = refusal({ ...request.body, destination: b.destination, recipient_info: b.recipient_info });
      if (problem) return error(res, ...problem);
      request.body = { ...request.body, recipient_info: b.recipient_info, destination: { ...b.destination, interval_utc: b.destination.interval_utc ?? request.body.destination.interval_utc } };
      counters.edits++;
      return sendJson(res, 200, { edit_id: `edit-${++seq}` });
    }

    if (method === 'POST' && path === '/request/cancel') {
      const request = requests.get(b.request_id);
      if (!request) return error(res, 404, 'not_found', 'Request not found');
      const status = current(request);
      if (SETTLED.has(status)) return sendJson(res, 200, { status: 'ERROR', reason: 'ORDER_FINISHED', description: `Заказ уже в статусе ${status}` });
      const immediate = BEFORE_HANDOVER.has(status);
      const at = immediate ? now() : now() + 5 * 60_000;
      request.states = [...reached(request), { at, status: 'CANCELLED' }];
      return sendJson(res, 200, immediate ? { status: 'SUCCESS', reason: '', description: 'Заказ отменен' } : { status: 'CREATED', reason: '', description: 'Запрос на отмену создан' });
    }

    if (method === 'POST' && path === '/pickup-points/list') {
      const within = (v: number, box?: { from: number; to: number }) => !box || (v >= box.from && v <= box.to);
      const list = points.filter(
        (p) =>
          (!b.pickup_point_ids || b.pickup_point_ids.includes(p.id)) &&
          within(p.position.latitude, b.latitude) &&
          within(p.position.longitude, b.longitude) &&
          (!b.type || p.type === b.type) &&
          (b.available_for_dropoff === undefined || p.available_for_dropoff === b.available_for_dropoff),
      );
      return sendJson(res, 200, { points: list });
    }

    if (method === 'POST' && path === '/pricing-calculator') {
      const to = cityIn(b.destination?.address) ?? (pointById(b.destination?.platform_station_id) ? fakeYandexCities[0] : undefined);
      if (!to) return error(res, 404, 'no_delivery_options', 'No delivery options');
      const policy = b.tariff === 'self_pickup' ? 'self_pickup' : 'time_interval';
      return sendJson(res, 200, { pricing_total: rub(priceOf(policy, Number(b.total_weight) || 0, Number(b.client_price) || 0)), delivery_days: to.name === 'Москва' ? 1 : 3 });
    }

    if (method === 'GET' && path === '/offers/info') {
      const station = url.searchParams.get('station_id');
      if (station && !pointById(station) && !station.startsWith('warehouse-')) return error(res, 400, 'bad_request', 'Cant get station id for point');
      if (!cityIn(url.searchParams.get('full_address'))) return error(res, 404, 'no_delivery_options', 'No delivery options');
      const unix = url.searchParams.get('send_unix') === 'true';
      const policy = url.searchParams.get('last_mile_policy') ?? 'time_interval';
      return sendJson(res, 200, { offers: windows(policy).map((w) => (unix ? { from: w.min / 1000, to: w.max / 1000 } : { from: utc(w.min), to: utc(w.max) })) });
    }

    if (method === 'POST' && (path === '/request/generate-labels' || path === '/request/get-handover-act')) {
      const ids: unknown = b.request_ids;
      if (!Array.isArray(ids) || ids.length === 0) return error(res, 400, 'bad_request', 'request_ids must not be empty');
      const found = ids.map((id) => requests.get(String(id)));
      const missing = ids.find((_, i) => !found[i]);
      if (missing !== undefined) return error(res, 404, 'not_found', `Request ${missing} not found`);
      if (path === '/request/generate-labels') {
        const pages = found.map((r) => ['Yandex Delivery', `Request ${r!.id}`, `Order ${r!.operatorId}`, ...r!.body.places.map((p: any) => `Place ${p.barcode}`)]);
        return sendPdf(res, await printForm(pages, b.label_size_mm === '210x297' ? [595, 842] : [283, 425]), 'labels.pdf');
      }
      const lines = ['Yandex Delivery handover act', ...found.map((r) => `${r!.operatorId} ${r!.id}`)];
      return sendPdf(res, await printForm([lines], [595, 842]), 'act.pdf');
    }

    return error(res, 404, 'not_found', `No route ${method} ${url.pathname}`);
  }

  const http = await startFakeHttp({
    faults: options.faults,
    routeKey: (method, url) => `${method} ${url.pathname}`,
    faultBody: (status) => ({ code: status === 429 ? 'too_many_requests' : 'internal_error', message: status === 429 ? 'Too many requests' : 'Internal server error' }),
    handle,
  });

  return {
    /** Base URL, like `https://b2b-authproxy.taxi.yandex.net`. */
    url: http.origin,
    /** 401s answered, duplicate numbers refused, offers made. */
    stats: counters,
    /** Calls per route and faults injected. */
    http: http.stats,
    failNext: http.failNext,
    setFaultRate: http.setFaultRate,
    /** Confirmed requests per shop number (operator_request_id). */
    registrations: (operatorId: string) => registrations.get(operatorId) ?? 0,
    registrationCounts: () => new Map(registrations),
    /** The token stops working (a password change in the account); `next` becomes the valid one, if given. */
    revokeToken(next?: string) {
      tokens.clear();
      if (next) tokens.add(next);
    },
    setTokenExpiresAt(ms: number) {
      tokenExpiresAt = ms;
    },
    setPoints(list: FakeYandexPoint[]) {
      points = list;
    },
    points: () => points,
    /** Adds a status to a request now (or at `at`), as the platform would. */
    pushStatus(requestId: string, status: string, at = now()) {
      const request = requests.get(requestId);
      if (!request) throw new Error(`fake Yandex: no request ${requestId}`);
      request.states = [...reached(request), { at, status }];
    },
    request(idOrOperator: string) {
      const r = requests.get(idOrOperator) ?? byOperator.get(idOrOperator);
      return r ? { id: r.id, operatorId: r.operatorId, body: r.body, status: current(r), statuses: reached(r).map((s) => s.status) } : null;
    },
    requests: () => [...requests.values()].map((r) => ({ id: r.id, operatorId: r.operatorId, status: current(r) })),
    close: http.close,
  };
}

export type FakeYandex = Awaited<ReturnType<typeof startFakeYandex>>;
