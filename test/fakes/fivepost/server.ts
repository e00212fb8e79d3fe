/**
 * A local fake of 5Post's API (api-omni.x5.ru), written from shared/reference/carriers-ru.md and lapaygroup/fivepost-sdk.
 * Real HTTP on 127.0.0.1: a JWT for the API key (`/jwt-generate-claims/rs256/1`, form claims) that expires on the
 * fake's clock, `Authorization: Bearer` checked on every call; orders (`POST /api/v3/orders`, the shop's number unique:
 * a repeat answers `alreadyCreated` with the same order); statuses and histories advancing over the fake's clock;
 * cancel while the order is not yet at 5Post's warehouse; points in Spring pages; labels as one PDF or a ZIP of PDFs;
 * refusals in 5Post's form `{ success: false, errorCode, errorMsg }`; 429/5xx/hangs/lost replies on demand or at a
 * seeded rate. It counts created orders per shop number so tests can assert "registered exactly once".
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { zipSync } from 'fflate';
import { printForm, sendJson, sendPdf, startFakeHttp, type Exchange, type FaultOptions } from '../fake-http';

export const FAKE_FIVEPOST_API_KEY = 'fp-fake-api-key-0001';
export const FAKE_FIVEPOST_WAREHOUSE = 'WH-SHOP-1';

export interface FakeFivePostPoint {
  id: string;
  name: string;
  type: 'POSTAMAT' | 'ISSUE_POINT' | 'TOBACCO';
  fullAddress: string;
  address: { city: string; region: string; zipCode: string; street: string; house: string; lat: number; lng: number };
  workHours: { day: string; opensAt: string; closesAt: string }[];
  cellLimits: { maxCellWidth: number; maxCellHeight: number; maxCellLength: number; maxWeight: number };
  cashAllowed: boolean;
  cardAllowed: boolean;
  returnAllowed: boolean;
  rate: { zone: string; rateValue: number; rateValueWithVat: number; rateExtraValue: number; rateExtraValueWithVat: number }[];
  deliverySL: { sl: number }[];
}

export interface FakeFivePostOptions {
  now?: () => number;
  apiKey?: string;
  warehouseId?: string;
  /** How long a JWT lives (the real one: an hour). */
  jwtLifetimeMs?: number;
  points?: FakeFivePostPoint[];
  faults?: FaultOptions;
}

export const fakeFivePostCities = [
  { name: 'Москва', region: 'Москва', zip: '125009', lat: 55.75, lng: 37.61, zone: '1', rate: 149, sl: 2 },
  { name: 'Санкт-Петербург', region: 'Санкт-Петербург', zip: '190000', lat: 59.93, lng: 30.31, zone: '2', rate: 179, sl: 3 },
  { name: 'Казань', region: 'Татарстан', zip: '420000', lat: 55.79, lng: 49.1, zone: '3', rate: 199, sl: 4 },
  { name: 'Екатеринбург', region: 'Свердловская', zip: '620000', lat: 56.83, lng: 60.6, zone: '4', rate: 229, sl: 5 },
];

const days = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Deterministic points: every 3rd a locker (cards only, every 9th prepaid only), the rest store points taking cash and cards; every 8th (from the 5th) 20 ₽ cheaper. */
export function generateFivePostPoints(count: number): FakeFivePostPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const city = fakeFivePostCities[i % fakeFivePostCities.length];
    const locker = i % 3 === 0;
    const rate = city.rate + (i % 8 === 4 ? -20 : 0);
    return {
      id: `${hex(i + 1, 8)}-5005-4000-8000-${hex(i + 1, 12)}`,
      name: `5Post ${locker ? 'постамат' : 'пункт выдачи'} №${i + 1}`,
      type: locker ? 'POSTAMAT' : i % 2 ? 'ISSUE_POINT' : 'TOBACCO',
      fullAddress: `${city.zip}, ${city.name}, ул. Магазинная, д. ${i + 1}`,
      address: { city: city.name, region: city.region, zipCode: city.zip, street: 'Магазинная', house: String(i + 1), lat: city.lat + (i % 5) * 0.01, lng: city.lng + (i % 3) * 0.01 },
      workHours: days.map((day) => ({ day, opensAt: locker ? '00:00:00' : '08:00:00', closesAt: locker ? '23:59:00' : '22:00:00' })),
      cellLimits: { maxCellWidth: 360, maxCellHeight: 400, maxCellLength: 600, maxWeight: 15_000_000 },
      cashAllowed: !locker,
      cardAllowed: !locker || i % 9 !== 0,
      returnAllowed: false,
      rate: [{ zone: city.zone, rateValue: rate, rateValueWithVat: Math.round(rate * 120) / 100, rateExtraValue: 25, rateExtraValueWithVat: 30 }],
      deliverySL: [{ sl: city.sl }],
    };
  });
}

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
/** Where an order goes on 5Post's clock: stage, execution state, when. */
const timeline = [
  { afterMs: 0, status: 'NEW', execution: 'CREATED' },
  { afterMs: 5 * MIN, status: 'APPROVED', execution: 'APPROVED' },
  { afterMs: 12 * HOUR, status: 'IN_PROCESS', execution: 'RECEIVED_IN_WAREHOUSE_BY_PLACES' },
  { afterMs: 14 * HOUR, status: 'IN_PROCESS', execution: 'SORTED_IN_WAREHOUSE' },
  { afterMs: 20 * HOUR, status: 'IN_PROCESS', execution: 'READY_TO_BE_SHIPPED_FROM_WAREHOUSE' },
  { afterMs: 48 * HOUR, status: 'IN_PROCESS', execution: 'PLACED_IN_POSTAMAT' },
  { afterMs: 60 * HOUR, status: 'DONE', execution: 'PICKED_UP' },
];

interface FakeOrder {
  orderId: string;
  senderOrderId: string;
  body: Record<string, any>;
  cargoes: { cargoId: string; senderCargoId: string; barcode: string }[];
  statuses: { at: number; status: string; execution: string }[];
}

/** 5Post's dates: ISO with the Moscow offset. */
const moscow = (ms: number) => `${new Date(ms + 3 * HOUR).toISOString().slice(0, 23)}+03:00`;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startFakeFivePost(options: FakeFivePostOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const apiKey = options.apiKey ?? FAKE_FIVEPOST_API_KEY;
  const warehouseId = options.warehouseId ?? FAKE_FIVEPOST_WAREHOUSE;
  const lifetime = options.jwtLifetimeMs ?? HOUR;
  let points = options.points ?? generateFivePostPoints(40);
  const jwts = new Map<string, number>();
  const orders = new Map<string, FakeOrder>();
  const bySender = new Map<string, FakeOrder>();
  const registrations = new Map<string, number>();
  const counters = { jwtsIssued: 0, wrongKey: 0, expiredJwt: 0, alreadyCreated: 0 };

  const refuse = (res: ServerResponse, status: number, errorCode: string, errorMsg: string) => sendJson(res, status, { success: false, errorCode, errorMsg });
  const reached = (o: FakeOrder) => o.statuses.filter((s) => s.at <= now());
  const last = (o: FakeOrder) => reached(o).at(-1)!;
  const entry = (o: FakeOrder, s: FakeOrder['statuses'][number]) => ({ orderId: o.orderId, senderOrderId: o.senderOrderId, status: s.status, executionStatus: s.execution, changeDate: moscow(s.at) });

  function issueJwt(): string {
    const iat = Math.floor(now() / 1000);
    const exp = Math.floor((now() + lifetime) / 1000);
    const token = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ sub: 'OpenAPI', aud: 'A122019!', iss: 'urn://Apigee', partnerId: 'fake-partner', iat, exp, jti: randomUUID() })}.${Buffer.from(randomUUID()).toString('base64url')}`;
    jwts.set(token, exp * 1000);
    counters.jwtsIssued++;
    return token;
  }

  /** Why the partner order cannot be accepted, in 5Post's words; null when it can. */
  function refusal(o: Record<string, any>, i: number): string | null {
    const at = `partnerOrder[${i}]`;
    if (!o || typeof o !== 'object') return `Element ${at} is empty`;
    for (const field of ['senderOrderId', 'clientOrderId', 'brandName', 'clientName', 'clientPhone', 'receiverLocation', 'senderLocation', 'undeliverableOption']) {
      if (!o[field]) return `Element ${at}.${field} is required`;
    }
    if (!/^\+?\d{10,12}$/.test(String(o.clientPhone))) return `Element ${at}.clientPhone has incorrect value`;
    if (o.senderLocation !== warehouseId) return `Склад отправителя ${o.senderLocation} не найден`;
    const point = points.find((p) => p.id === o.receiverLocation);
    if (!point) return `PickupPointDto is null with id = ${o.receiverLocation}`;
    const type = o.cost?.paymentType;
    if (!['CASH', 'CASHLESS', 'PREPAYMENT'].includes(type)) return `Element ${at}.cost.paymentType has incorrect value`;
    if (type !== 'PREPAYMENT' && !(point.cashAllowed || point.cardAllowed)) return `Точка выдачи ${point.id} не принимает оплату при получении`;
    if (!Array.isArray(o.cargoes) || o.cargoes.length === 0) return `Element ${at}.cargoes is required`;
    for (const c of o.cargoes) {
      if (!(c.weight > 0) || c.weight > point.cellLimits.maxWeight) return `Element ${at}.cargoes.weight has incorrect value`;
      if (!Array.isArray(c.barcodes) || !c.barcodes[0]?.value) return `Element ${at}.cargoes.barcodes is required`;
    }
    return null;
  }

  async function labels(res: ServerResponse, ids: string[]) {
    const found = ids.map((id) => bySender.get(id));
    if (!ids.length || found.some((o) => !o)) return refuse(res, 404, 'ORDER_NOT_FOUND', `Order not found: ${ids.filter((_, i) => !found[i]).join(', ')}`);
    const pdfs = await Promise.all(found.map((o) => printForm([['5Post', `Order ${o!.senderOrderId}`, `5Post id ${o!.orderId}`, `Barcode ${o!.cargoes[0]?.barcode}`, `Point ${o!.body.receiverLocation}`]])));
    if (pdfs.length === 1) return sendPdf(res, pdfs[0], `${ids[0]}.pdf`);
    // Several orders: a ZIP with one PDF each (5Post answers "PDF or ZIP").
    const zip = zipSync(Object.fromEntries(found.map((o, i) => [`${String(i + 1).padStart(3, '0')}-${o!.senderOrderId}.pdf`, new Uint8Array(pdfs[i])])));
    res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': zip.length, 'Content-Disposition': 'attachment; filename="labels.zip"' });
    res.end(Buffer.from(zip));
  }

  async function handle({ req, res, url, body }: Exchange) {
    const path = url.pathname;
    if (req.method === 'POST' && path === '/jwt-generate-claims/rs256/1') {
      if (url.searchParams.get('apikey') !== apiKey) {
        counters.wrongKey++;
        return refuse(res, 401, '401', 'Invalid ApiKey');
      }
      return sendJson(res, 200, { jwt: issueJwt() });
    }
    if (!path.startsWith('/api/')) return refuse(res, 404, '404', `No route ${path}`);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiresAt = token ? jwts.get(token) : undefined;
    if (expiresAt === undefined) return refuse(res, 401, '401', 'Invalid JWT token');
    if (expiresAt <= now()) {
      counters.expiredJwt++;
      return refuse(res, 401, '401', 'JWT expired');
    }
    const b = body as any;

    if (req.method === 'POST' && path === '/api/v3/orders') {
      const list: Record<string, any>[] = Array.isArray(b?.partnerOrders) ? b.partnerOrders : [];
      if (!list.length) return refuse(res, 400, '400', 'Element partnerOrders is required');
      for (const [i, o] of list.entries()) {
        const problem = refusal(o, i);
        if (problem) return refuse(res, 400, '400', problem);
      }
      return sendJson(res, 200, list.map((o) => {
        const known = bySender.get(String(o.senderOrderId));
        if (known) {
          counters.alreadyCreated++;
          return { orderId: known.orderId, senderOrderId: known.senderOrderId, cargoes: known.cargoes, alreadyCreated: true };
        }
        const created = now();
        const order: FakeOrder = {
          orderId: randomUUID(),
          senderOrderId: String(o.senderOrderId),
          body: o,
          cargoes: o.cargoes.map((c: any) => ({ cargoId: randomUUID(), senderCargoId: String(c.senderCargoId), barcode: String(c.barcodes[0].value) })),
          statuses: timeline.map((t) => ({ at: created + t.afterMs, status: t.status, execution: t.execution })),
        };
        orders.set(order.orderId, order);
        bySender.set(order.senderOrderId, order);
        registrations.set(order.senderOrderId, (registrations.get(order.senderOrderId) ?? 0) + 1);
        return { orderId: order.orderId, senderOrderId: order.senderOrderId, cargoes: order.cargoes, alreadyCreated: false };
      }));
    }

    if (req.method === 'POST' && path === '/api/v1/getOrderStatus') {
      if (!Array.isArray(b)) return refuse(res, 400, '400', 'A list of orders is expected');
      const found = b.map((w: any) => (w?.orderId ? orders.get(String(w.orderId)) : bySender.get(String(w?.senderOrderId)))).filter((o: FakeOrder | undefined): o is FakeOrder => !!o);
      return sendJson(res, 200, found.map((o) => entry(o, last(o))));
    }

    if (req.method === 'POST' && path === '/api/v1/getOrderHistory') {
      const o = b?.orderId ? orders.get(String(b.orderId)) : bySender.get(String(b?.senderOrderId));
      if (!o) return refuse(res, 404, 'ORDER_NOT_FOUND', 'Order not found');
      return sendJson(res, 200, reached(o).map((s) => entry(o, s)).reverse());
    }

    const cancel = /^\/api\/v1\/cancelOrder\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && cancel) {
      const o = orders.get(decodeURIComponent(cancel[1]));
      if (!o) return refuse(res, 404, 'ORDER_NOT_FOUND', 'Order not found');
      const state = last(o);
      if (state.status === 'CANCELLED') return refuse(res, 400, 'ORDER_ALREADY_CANCELLED', 'Заказ уже отменён');
      if (state.status !== 'NEW' && state.status !== 'APPROVED') return refuse(res, 400, 'ORDER_CANNOT_BE_CANCELLED', 'Заказ уже принят на склад 5Post, отмена невозможна');
      o.statuses = [...reached(o), { at: now(), status: 'CANCELLED', execution: 'CANCELLED' }];
      return sendJson(res, 200, { orderId: o.orderId, senderOrderId: o.senderOrderId, status: 'CANCELLED' });
    }

    if (req.method === 'POST' && path === '/api/v1/pickuppoints/query') {
      const pageNumber = Number(b?.pageNumber ?? 0);
      const pageSize = Number(b?.pageSize ?? 1000);
      if (!Number.isInteger(pageNumber) || pageNumber < 0 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 2000) return refuse(res, 400, '400', 'pageSize must be 1..2000, pageNumber from 0');
      const content = points.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);
      const totalPages = Math.ceil(points.length / pageSize);
      return sendJson(res, 200, { content, totalPages, totalElements: points.length, number: pageNumber, size: pageSize, numberOfElements: content.length, first: pageNumber === 0, last: pageNumber >= totalPages - 1, empty: content.length === 0 });
    }

    if (req.method === 'POST' && path === '/api/v1/orderLabels/bySenderOrderId') return labels(res, Array.isArray(b?.senderOrderIds) ? b.senderOrderIds.map(String) : []);

    return refuse(res, 404, '404', `No route ${req.method} ${path}`);
  }

  const http = await startFakeHttp({
    faults: options.faults,
    routeKey: (method, url) => `${method} ${url.pathname.replace(/\/cancelOrder\/[^/]+$/, '/cancelOrder/{id}')}`,
    faultBody: (status) => ({ success: false, errorCode: String(status), errorMsg: status === 429 ? 'Too many requests' : 'Internal server error' }),
    handle,
  });

  return {
    url: http.origin,
    stats: counters,
    http: http.stats,
    failNext: http.failNext,
    setFaultRate: http.setFaultRate,
    registrations: (senderOrderId: string) => registrations.get(senderOrderId) ?? 0,
    registrationCounts: () => new Map(registrations),
    /** Every JWT stops working now (revoked early): the next call is refused as expired. */
    expireJwts() {
      for (const token of jwts.keys()) jwts.set(token, now());
    },
    setPoints(list: FakeFivePostPoint[]) {
      points = list;
    },
    points: () => points,
    /** Adds a status at `at` (now), as 5Post's warehouse would; later planned ones stay. */
    pushStatus(orderId: string, status: string, execution: string, at = now()) {
      const o = orders.get(orderId);
      if (!o) throw new Error(`fake 5Post: no order ${orderId}`);
      o.statuses = [...o.statuses, { at, status, execution }].sort((a, b) => a.at - b.at);
    },
    order(senderOrderId: string) {
      const o = bySender.get(senderOrderId);
      return o ? { orderId: o.orderId, senderOrderId: o.senderOrderId, body: o.body, barcode: o.cargoes[0]?.barcode, status: last(o).status, execution: last(o).execution } : null;
    },
    close: http.close,
  };
}

export type FakeFivePost = Awaited<ReturnType<typeof startFakeFivePost>>;
