/**
 * A local fake of CDEK API v2, written from shared/reference/cdek-v2.md (the only source; no network here).
 * A real node:http server on 127.0.0.1:0 speaking the documented protocol: OAuth client credentials with
 * expiry, asynchronous order creation (ACCEPTED → SUCCESSFUL / INVALID, cdek_number later), statuses that
 * advance over an injected clock, lookups by im_number / cdek_number, PATCH / DELETE / refusal rules,
 * delivery points paged by headers, tariff list, estimated intervals, asynchronous print forms, errors in
 * all three forms, and fault injection (429, 5xx, hangs, resets) on demand or at a seeded rate.
 * It counts accepted creates per im_number so tests can assert "registered exactly once".
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRandom } from '../fake-http';
import { createIntakeDesk, type IntakePace } from './intakes';

export const FAKE_TEST_ACCOUNT = { clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP', clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5' };

/**
 * '429' / '500' / '502' / '503': answered at once without doing the work. 'hang': never answered, work not
 * done (a lost request). 'hang-after': the work is done, the answer never comes (a lost reply). 'reset':
 * the connection is dropped without an answer, work not done.
 */
export type FaultKind = '429' | '500' | '502' | '503' | 'hang' | 'hang-after' | 'reset';

export interface FakeOffice {
  code: string;
  type: 'PVZ' | 'POSTAMAT';
  name?: string;
  location: { city_code: number; city: string; region: string; country_code: string; postal_code: string; address: string; address_full: string; latitude: number; longitude: number };
  work_time: string;
  work_time_list: { day: number; time: string }[];
  is_dressing_room: boolean;
  have_cash: boolean;
  have_cashless: boolean;
  allowed_cod: boolean;
  is_handout: boolean;
  is_reception: boolean;
  weight_min: number;
  weight_max: number;
  dimensions?: { width: number; height: number; depth: number }[];
}

export interface FakeCdekOptions {
  clientId?: string;
  clientSecret?: string;
  /** Token lifetime (s). */
  tokenTtlSeconds?: number;
  /** The fake's clock (ms): token expiry, status dates and timelines. */
  now?: () => number;
  /** When an accepted create (or update) is checked: on the next GET of it, after a delay on the fake's clock, or only when the test says. */
  validation?: 'next-get' | { afterMs: number } | 'manual';
  /** GETs of a valid order before its cdek_number appears. */
  cdekNumberAfterGets?: number;
  /** Statuses an order reaches after it is CREATED, each this long after the check, on the fake's clock. */
  timeline?: { afterMs: number; code: string; reasonCode?: string; city?: string }[];
  /** Faults at a rate, from a seeded random source; `routes` limits them (matched against "METHOD /path"). */
  faults?: { rate: number; seed: number; kinds: FaultKind[]; routes?: RegExp };
  offices?: FakeOffice[];
  /** Page size of /deliverypoints when the caller names none. */
  defaultPageSize?: number;
  /** How courier requests move on the fake's clock (default: checked on their first read, no further statuses). */
  intakes?: IntakePace;
  /** GETs of a print form before it is READY. */
  printPollsUntilReady?: number;
}

interface RequestRec {
  request_uuid: string;
  type: 'CREATE' | 'UPDATE' | 'DELETE' | 'AUTH' | 'GET' | 'CREATE_REFUSAL';
  state: 'ACCEPTED' | 'SUCCESSFUL' | 'INVALID' | 'WAITING';
  date_time: string;
  errors: { code: string; message: string }[];
  warnings: never[];
  pendingBody?: Record<string, unknown>;
}

interface StatusRec {
  code: string;
  name: string;
  date_time: string;
  at: number;
  reason_code?: string;
  city?: string;
  deleted?: boolean;
}

interface FakeOrder {
  uuid: string;
  number: string;
  cdekNumber: string | null;
  body: Record<string, unknown>;
  createdAt: number;
  checkedAt: number | null;
  requests: RequestRec[];
  statuses: StatusRec[];
  getsSinceValid: number;
  timelineApplied: number;
}

interface PrintForm {
  uuid: string;
  /** Barcode labels or the orders' waybills. */
  kind: 'barcodes' | 'orders';
  orders: string[];
  format: string;
  gets: number;
  statuses: { code: string; name: string; date_time: string }[];
}

const statusNames: Record<string, string> = {
  ACCEPTED: 'Принят',
  CREATED: 'Создан',
  INVALID: 'Некорректный заказ',
  REMOVED: 'Удален',
  RECEIVED_AT_SHIPMENT_WAREHOUSE: 'Принят на склад отправителя',
  READY_TO_SHIP_AT_SENDING_OFFICE: 'Выдан на отправку в г. отправителе',
  SENT_TO_RECIPIENT_CITY: 'Отправлен в г. получатель',
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: 'Принят на склад доставки',
  ACCEPTED_AT_PICK_UP_POINT: 'Принят на склад до востребования',
  TAKEN_BY_COURIER: 'Выдан на доставку',
  DELIVERED: 'Вручен',
  NOT_DELIVERED: 'Не вручен',
};

/** Cities the fake's address recognition knows (CDEK city codes). */
export const fakeCities = [
  { code: 44, city: 'Москва', region: 'Москва', country_code: 'RU', latitude: 55.7558, longitude: 37.6173, postal: '101000' },
  { code: 137, city: 'Санкт-Петербург', region: 'Санкт-Петербург', country_code: 'RU', latitude: 59.9391, longitude: 30.3159, postal: '190000' },
  { code: 270, city: 'Новосибирск', region: 'Новосибирская область', country_code: 'RU', latitude: 55.0302, longitude: 82.9204, postal: '630000' },
  { code: 250, city: 'Екатеринбург', region: 'Свердловская область', country_code: 'RU', latitude: 56.8389, longitude: 60.6057, postal: '620000' },
  { code: 424, city: 'Казань', region: 'Республика Татарстан', country_code: 'RU', latitude: 55.7963, longitude: 49.1088, postal: '420000' },
];

/** Deterministic offices: `count` spread over the fake's cities, every 5th a parcel locker. */
export function generateOffices(count: number): FakeOffice[] {
  return Array.from({ length: count }, (_, i) => {
    const city = fakeCities[i % fakeCities.length];
    const postamat = i % 5 === 4;
    const prefix = { 44: 'MSK', 137: 'SPB', 270: 'NSK', 250: 'EKB', 424: 'KZN' }[city.code] ?? 'XXX';
    const street = `ул. Тестовая, д. ${i + 1}`;
    return {
      code: `${prefix}${String(i + 1).padStart(4, '0')}`,
      type: postamat ? 'POSTAMAT' : 'PVZ',
      ...(i % 7 === 3 ? {} : { name: `${postamat ? 'Постамат' : 'Пункт'} СДЭК ${city.city} №${i + 1}` }),
      location: {
        city_code: city.code,
        city: city.city,
        region: city.region,
        country_code: city.country_code,
        postal_code: city.postal,
        address: street,
        address_full: `${city.postal}, ${city.region}, ${city.city}, ${street}`,
        latitude: Number((city.latitude + (i % 50) / 1000).toFixed(6)),
        longitude: Number((city.longitude + (i % 30) / 1000).toFixed(6)),
      },
      work_time: postamat ? 'Пн-Вс 00:00-23:59' : 'Пн-Пт 10:00-20:00, Сб 10:00-16:00',
      work_time_list: postamat
        ? [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '00:00/23:59' }))
        : [...[1, 2, 3, 4, 5].map((day) => ({ day, time: '10:00/20:00' })), { day: 6, time: '10:00/16:00' }],
      is_dressing_room: !postamat && i % 2 === 0,
      have_cash: !postamat,
      have_cashless: true,
      allowed_cod: i % 10 !== 9,
      is_handout: true,
      is_reception: !postamat,
      weight_min: 0,
      weight_max: postamat ? 20 : 30,
      ...(postamat ? { dimensions: [{ width: 40, height: 20, depth: 60 }, { width: 40, height: 40, depth: 60 }, { width: 40, height: 8, depth: 60 }] } : {}),
    };
  });
}

export { seededRandom };

const pad = (n: number) => String(n).padStart(2, '0');
/** CDEK's date form: `2023-11-28T07:44:45+0000`. */
export function cdekDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+0000`;
}

const finalCodes = new Set(['DELIVERED', 'NOT_DELIVERED', 'REMOVED', 'POSTOMAT_RECEIVED', 'INVALID']);
const DUPLICATE = 'error_validate_im_dep_number_has_already_had_integration';
/** The reference names no code for "wrong state for this operation" beyond update; the fake uses this one. */
export const FAKE_FORBIDDEN = 'v2_entity_forbidden';

/** A minimal well-formed PDF with one line of text. */
function tinyPdf(text: string): Buffer {
  const safe = text.replace(/[()\\]/g, '').replace(/[^\x20-\x7e]/g, '?');
  const stream = `BT /F1 12 Tf 40 780 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export async function startFakeCdek(options: FakeCdekOptions = {}) {
  const clientId = options.clientId ?? FAKE_TEST_ACCOUNT.clientId;
  const clientSecret = options.clientSecret ?? FAKE_TEST_ACCOUNT.clientSecret;
  const now = options.now ?? (() => Date.now());
  let validation = options.validation ?? 'next-get';
  let tokenTtl = options.tokenTtlSeconds ?? 3600;
  let offices = options.offices ?? generateOffices(60);
  const random = seededRandom(options.faults?.seed ?? 1);
  let faultRate = options.faults?.rate ?? 0;
  const faultKinds = options.faults?.kinds ?? [];
  const faultRoutes = options.faults?.routes;

  const tokens = new Map<string, number>(); // token → expires at (ms)
  const orders = new Map<string, FakeOrder>();
  const printForms = new Map<string, PrintForm>();
  const intakeDesk = createIntakeDesk({ now: () => now(), cdekDate, pace: options.intakes });
  const forced: { kind: FaultKind; route?: RegExp }[] = [];
  const registrations = new Map<string, number>();
  let cdekSeq = 1_000_000_000;
  const stats = {
    requests: 0,
    byRoute: {} as Record<string, number>,
    faults: {} as Record<FaultKind, number>,
    tokensIssued: 0,
    /** Calls refused with 401 v2_token_expired. */
    unauthorized: 0,
    duplicateRefusals: 0,
  };
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();

  // ---------------------------------------------------------- helpers

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  const request = (type: RequestRec['type'], state: RequestRec['state'], errors: RequestRec['errors'] = []): RequestRec => ({
    request_uuid: randomUUID(),
    type,
    state,
    date_time: cdekDate(now()),
    errors,
    warnings: [],
  });
  /** The second error form: `requests[].errors` of an INVALID request. */
  const invalid = (res: ServerResponse, status: number, type: RequestRec['type'], code: string, message: string) =>
    json(res, status, { requests: [request(type, 'INVALID', [{ code, message }])] });
  /** The first error form: top-level `errors[]`. */
  const topErrors = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { errors: [{ code, message }] });

  const addStatus = (order: FakeOrder, code: string, extra: { reasonCode?: string; city?: string; at?: number } = {}) => {
    const at = extra.at ?? now();
    order.statuses.push({
      code,
      name: statusNames[code] ?? code,
      date_time: cdekDate(at),
      at,
      ...(extra.reasonCode ? { reason_code: extra.reasonCode } : {}),
      ...(extra.city ? { city: extra.city } : {}),
    });
  };
  const liveStatuses = (o: FakeOrder) => o.statuses.filter((s) => !s.deleted);
  const current = (o: FakeOrder) => liveStatuses(o).reduce<StatusRec | null>((a, s) => (!a || s.at >= a.at ? s : a), null)?.code ?? null;
  const createRequest = (o: FakeOrder) => o.requests.find((r) => r.type === 'CREATE')!;

  const cityOf = (loc: Record<string, unknown> | undefined) => {
    if (!loc) return null;
    if (typeof loc.code === 'number') return fakeCities.find((c) => c.code === loc.code) ?? null;
    if (typeof loc.city === 'string') return fakeCities.find((c) => c.city.toLowerCase() === String(loc.city).toLowerCase()) ?? null;
    if (typeof loc.postal_code === 'string') return fakeCities.find((c) => c.postal.slice(0, 3) === String(loc.postal_code).slice(0, 3)) ?? null;
    return null;
  };

  /** CDEK's asynchronous check of an order body. */
  function check(body: Record<string, unknown>): RequestRec['errors'] {
    const errors: RequestRec['errors'] = [];
    const recipient = body.recipient as { name?: string; phones?: { number?: string }[] } | undefined;
    if (!recipient?.name) errors.push({ code: 'v2_field_is_empty', message: 'recipient.name is empty' });
    if (!recipient?.phones?.length || !recipient.phones[0]?.number) errors.push({ code: 'v2_field_is_empty', message: 'recipient.phones is empty' });
    if (body.delivery_point && body.to_location) errors.push({ code: 'v2_delivery_address_multivalued', message: 'delivery_point and to_location are both given' });
    else if (!body.delivery_point && !body.to_location) errors.push({ code: 'v2_field_is_empty', message: 'delivery_point or to_location is required' });
    else if (body.delivery_point && !offices.some((o) => o.code === body.delivery_point)) {
      errors.push({ code: 'v2_entity_not_found', message: `delivery point ${String(body.delivery_point)} not found` });
    } else if (body.to_location) {
      const to = body.to_location as Record<string, unknown>;
      if (!to.address) errors.push({ code: 'v2_field_is_empty', message: 'to_location.address is empty' });
      if (!cityOf(to)) errors.push({ code: 'v2_recipient_location_not_recognized', message: `recipient location not recognized: ${String(to.city ?? to.postal_code ?? '')}` });
    }
    if (!body.shipment_point && !body.from_location) errors.push({ code: 'v2_field_is_empty', message: 'shipment_point or from_location is required' });
    if (body.shipment_point && !offices.some((o) => o.code === body.shipment_point && o.is_reception)) {
      errors.push({ code: 'v2_entity_not_found', message: `shipment point ${String(body.shipment_point)} not found` });
    }
    const packages = body.packages as { items?: unknown[] }[] | undefined;
    if (!Array.isArray(packages) || packages.length < 1 || packages.length > 255) errors.push({ code: 'v2_field_is_empty', message: 'packages must hold 1 to 255 packages' });
    else if (packages.some((p) => (p.items?.length ?? 0) > 126)) errors.push({ code: 'v2_field_is_empty', message: 'at most 126 kinds of items per package' });
    return errors;
  }

  function validate(order: FakeOrder, outcome?: 'SUCCESSFUL' | 'INVALID') {
    const create = createRequest(order);
    if (create.state === 'ACCEPTED') {
      const errors = outcome === 'SUCCESSFUL' ? [] : outcome === 'INVALID' ? [{ code: 'v2_field_is_empty', message: 'refused by the test' }] : check(order.body);
      order.checkedAt = now();
      if (errors.length) {
        create.state = 'INVALID';
        create.errors = errors;
        addStatus(order, 'INVALID');
      } else {
        create.state = 'SUCCESSFUL';
        addStatus(order, 'CREATED');
        if ((options.cdekNumberAfterGets ?? 0) === 0) order.cdekNumber = String(++cdekSeq);
      }
    }
    for (const r of order.requests) {
      if (r.type !== 'UPDATE' || r.state !== 'ACCEPTED') continue;
      const merged = { ...order.body, ...r.pendingBody };
      const errors = check(merged);
      r.state = errors.length ? 'INVALID' : 'SUCCESSFUL';
      r.errors = errors;
      if (!errors.length) order.body = merged;
      delete r.pendingBody;
    }
  }

  /** What time and GETs do to an order: the check (per the validation mode), the CDEK number, the timeline. */
  function advance(order: FakeOrder, viaGet: boolean) {
    const due =
      validation === 'next-get' ? viaGet : validation === 'manual' ? false : now() >= order.createdAt + validation.afterMs;
    if (due) validate(order);
    if (createRequest(order).state === 'SUCCESSFUL' && !order.cdekNumber && viaGet) {
      order.getsSinceValid++;
      if (order.getsSinceValid > (options.cdekNumberAfterGets ?? 0)) order.cdekNumber = String(++cdekSeq);
    }
    if (order.checkedAt !== null && createRequest(order).state === 'SUCCESSFUL') {
      const timeline = options.timeline ?? [];
      while (order.timelineApplied < timeline.length) {
        const step = timeline[order.timelineApplied];
        const at = order.checkedAt + step.afterMs;
        const code = current(order);
        if (at > now() || (code && finalCodes.has(code))) break;
        addStatus(order, step.code, { at, reasonCode: step.reasonCode, city: step.city });
        order.timelineApplied++;
      }
    }
  }

  function entity(order: FakeOrder) {
    return {
      uuid: order.uuid,
      type: 1,
      number: order.number,
      ...(order.cdekNumber ? { cdek_number: order.cdekNumber } : {}),
      tariff_code: order.body.tariff_code,
      comment: order.body.comment,
      ...(order.body.delivery_point ? { delivery_point: order.body.delivery_point } : {}),
      ...(order.body.to_location ? { to_location: order.body.to_location } : {}),
      recipient: order.body.recipient,
      packages: order.body.packages,
      // CDEK lists statuses newest first; readers must sort them.
      statuses: [...order.statuses].reverse().map(({ at: _at, ...s }) => s),
    };
  }
  const orderAnswer = (order: FakeOrder) => ({ entity: entity(order), requests: order.requests.map(({ pendingBody: _p, ...r }) => r), related_entities: [] });

  const latestByNumber = (number: string) => [...orders.values()].filter((o) => o.number === number).at(-1) ?? null;

  // ---------------------------------------------------------- routes

  function tokenRoute(req: IncomingMessage, res: ServerResponse, raw: string, url: URL) {
    const form = new URLSearchParams(raw);
    const get = (k: string) => form.get(k) ?? url.searchParams.get(k);
    if (get('grant_type') !== 'client_credentials') return json(res, 400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' });
    if (get('client_id') !== clientId || get('client_secret') !== clientSecret) {
      return json(res, 400, { error: 'invalid_client', error_description: 'Bad credentials' });
    }
    const token = `fake-${randomUUID()}`;
    tokens.set(token, now() + tokenTtl * 1000);
    stats.tokensIssued++;
    json(res, 200, { access_token: token, token_type: 'bearer', expires_in: tokenTtl, scope: 'order:all payment:all', jti: randomUUID() });
  }

  function authorized(req: IncomingMessage, res: ServerResponse): boolean {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const expires = tokens.get(token);
    if (expires === undefined || expires <= now()) {
      stats.unauthorized++;
      invalid(res, 401, 'AUTH', 'v2_token_expired', 'Token is expired or unknown');
      return false;
    }
    return true;
  }

  function route(req: IncomingMessage, res: ServerResponse, raw: string, url: URL) {
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/^\/v2/, '');
    if (method === 'POST' && path === '/oauth/token') return tokenRoute(req, res, raw, url);
    if (!authorized(req, res)) return;
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return topErrors(res, 400, 'v2_bad_request', 'The body is not JSON');
      }
    }
    let m: RegExpExecArray | null;

    if (method === 'POST' && path === '/orders') {
      if (!body.number) return invalid(res, 400, 'CREATE', 'v2_field_is_empty', 'number is empty');
      if (!body.tariff_code) return invalid(res, 400, 'CREATE', 'v2_field_is_empty', 'tariff_code is empty');
      const number = String(body.number);
      const existing = latestByNumber(number);
      if (existing && createRequest(existing).state !== 'INVALID' && current(existing) !== 'REMOVED') {
        stats.duplicateRefusals++;
        return invalid(res, 400, 'CREATE', DUPLICATE, `Order number ${number} has already been integrated`);
      }
      const order: FakeOrder = {
        uuid: randomUUID(),
        number,
        cdekNumber: null,
        body,
        createdAt: now(),
        checkedAt: null,
        requests: [request('CREATE', 'ACCEPTED')],
        statuses: [],
        getsSinceValid: 0,
        timelineApplied: 0,
      };
      addStatus(order, 'ACCEPTED');
      orders.set(order.uuid, order);
      registrations.set(number, (registrations.get(number) ?? 0) + 1);
      return json(res, 202, { entity: { uuid: order.uuid }, requests: [createRequest(order)] });
    }

    if (method === 'GET' && path === '/orders') {
      const im = url.searchParams.get('im_number');
      const cdek = url.searchParams.get('cdek_number');
      const order = im ? latestByNumber(im) : cdek ? ([...orders.values()].find((o) => o.cdekNumber === cdek) ?? null) : null;
      if (!order) return invalid(res, 404, 'GET', 'v2_entity_not_found', 'Order not found');
      advance(order, true);
      return json(res, 200, orderAnswer(order));
    }

    if ((m = /^\/orders\/([0-9a-f-]{36})$/.exec(path)) && method === 'GET') {
      const order = orders.get(m[1]);
      if (!order) return invalid(res, 404, 'GET', 'v2_entity_not_found', 'Order not found');
      advance(order, true);
      return json(res, 200, orderAnswer(order));
    }

    if (method === 'PATCH' && path === '/orders') {
      const order = typeof body.uuid === 'string' ? orders.get(body.uuid) : [...orders.values()].find((o) => o.cdekNumber !== null && o.cdekNumber === String(body.cdek_number));
      if (!order) return invalid(res, 404, 'UPDATE', 'v2_entity_not_found', 'Order not found');
      advance(order, false);
      const code = current(order);
      if (code !== 'CREATED' && code !== 'ACCEPTED') return invalid(res, 400, 'UPDATE', 'v2_update_forbidden', `Order in status ${code} cannot be changed`);
      const { uuid: _u, cdek_number: _c, ...changes } = body;
      const update: RequestRec = { ...request('UPDATE', 'ACCEPTED'), pendingBody: changes };
      order.requests.push(update);
      const { pendingBody: _p, ...shown } = update;
      return json(res, 202, { entity: { uuid: order.uuid }, requests: [shown] });
    }

    if ((m = /^\/orders\/([0-9a-f-]{36})$/.exec(path)) && method === 'DELETE') {
      const order = orders.get(m[1]);
      if (!order) return invalid(res, 404, 'DELETE', 'v2_entity_not_found', 'Order not found');
      advance(order, false);
      const code = current(order);
      if (code && finalCodes.has(code)) return invalid(res, 400, 'DELETE', 'v2_entity_has_final_status', `Order has final status ${code}`);
      if (code !== 'CREATED') return invalid(res, 400, 'DELETE', FAKE_FORBIDDEN, `Only a CREATED order can be deleted; this one is ${code}`);
      addStatus(order, 'REMOVED');
      return json(res, 202, { entity: { uuid: order.uuid }, requests: [request('DELETE', 'SUCCESSFUL')] });
    }

    if ((m = /^\/orders\/([0-9a-f-]{36})\/refusal$/.exec(path)) && method === 'POST') {
      const order = orders.get(m[1]);
      if (!order) return invalid(res, 404, 'CREATE_REFUSAL', 'v2_entity_not_found', 'Order not found');
      advance(order, false);
      const code = current(order);
      if (code && finalCodes.has(code)) return invalid(res, 400, 'CREATE_REFUSAL', 'v2_entity_has_final_status', `Order has final status ${code}`);
      if (code === 'CREATED' || code === 'ACCEPTED') return invalid(res, 400, 'CREATE_REFUSAL', FAKE_FORBIDDEN, 'A CREATED order is deleted, not refused');
      addStatus(order, 'NOT_DELIVERED', { reasonCode: '11' });
      return json(res, 202, { entity: { uuid: order.uuid }, requests: [request('CREATE_REFUSAL', 'SUCCESSFUL')] });
    }

    const intakeAnswer = intakeDesk.route(method, path, body);
    if (intakeAnswer) return json(res, intakeAnswer.status, intakeAnswer.body);

    if (method === 'GET' && path === '/deliverypoints') {
      const type = url.searchParams.get('type') ?? 'ALL';
      const cityCode = url.searchParams.get('city_code');
      const size = Number(url.searchParams.get('size') ?? options.defaultPageSize ?? 1000);
      const page = Number(url.searchParams.get('page') ?? 0);
      const matching = offices.filter((o) => (type === 'ALL' || o.type === type) && (!cityCode || String(o.location.city_code) === cityCode));
      const totalPages = Math.max(1, Math.ceil(matching.length / size));
      return json(res, 200, matching.slice(page * size, (page + 1) * size), {
        'X-Current-Page': String(page),
        'X-Total-Pages': String(totalPages),
        'X-Total-Elements': String(matching.length),
      });
    }

    if (method === 'POST' && path === '/calculator/tarifflist') {
      const from = cityOf(body.from_location as Record<string, unknown>);
      const to = cityOf(body.to_location as Record<string, unknown>);
      if (!body.from_location || !body.to_location) return topErrors(res, 400, 'v2_field_is_empty', 'from_location and to_location are required');
      if (!to) return topErrors(res, 400, 'v2_recipient_location_not_recognized', 'Recipient location not recognized');
      const packages = (body.packages as { weight?: number }[] | undefined) ?? [];
      if (!packages.length) return topErrors(res, 400, 'v2_field_is_empty', 'packages are required');
      const kg = Math.ceil(packages.reduce((s, p) => s + (p.weight ?? 0), 0) / 1000);
      const far = from?.code === to.code ? 0 : 1 + (Math.abs((from?.code ?? 0) - to.code) % 4);
      const tariffs = [
        [136, 'Посылка склад-склад', 4, 250],
        [137, 'Посылка склад-дверь', 3, 380],
        [138, 'Посылка дверь-склад', 2, 390],
        [139, 'Посылка дверь-дверь', 1, 520],
        [366, 'Посылка дверь-постамат', 6, 360],
        [368, 'Посылка склад-постамат', 7, 230],
        [999, 'Экспериментальный тариф', 9, 999],
      ] as const;
      return json(res, 200, {
        tariff_codes: tariffs.map(([code, name, mode, base]) => ({
          tariff_code: code,
          tariff_name: name,
          tariff_description: name,
          delivery_mode: mode,
          delivery_sum: base + kg * 45.5 + far * 100,
          period_min: 1 + far,
          period_max: 2 + far * 2,
        })),
      });
    }

    if (method === 'POST' && path === '/delivery/estimatedIntervals') {
      if (!body.tariff_code || !body.to_location || !body.from_location) return topErrors(res, 400, 'v2_field_is_empty', 'tariff_code, from_location and to_location are required');
      if (!cityOf(body.to_location as Record<string, unknown>)) return topErrors(res, 400, 'v2_recipient_location_not_recognized', 'Recipient location not recognized');
      if (![137, 139].includes(Number(body.tariff_code))) return topErrors(res, 400, 'v2_field_is_empty', 'Intervals exist only for delivery to the door');
      const start = typeof body.date_time === 'string' ? Date.parse(String(body.date_time).replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : now();
      return json(res, 200, {
        date_intervals: [1, 2, 3].map((d) => ({
          date: cdekDate(start + d * 86_400_000).slice(0, 10),
          time_intervals: [
            { start_time: '09:00', end_time: '14:00' },
            { start_time: '14:00', end_time: '18:00' },
          ],
        })),
      });
    }

    if (method === 'GET' && path === '/location/cities') {
      const size = Number(url.searchParams.get('size') ?? 1000);
      const name = url.searchParams.get('city');
      const list = fakeCities.filter((c) => !name || c.city === name).slice(0, size);
      return json(res, 200, list.map(({ postal: _p, ...c }) => ({ ...c, payment_limit: -1 })));
    }

    // Print forms: barcode labels (/print/barcodes) and the orders' waybills (/print/orders), one asynchronous flow.
    if (method === 'POST' && (m = /^\/print\/(barcodes|orders)$/.exec(path))) {
      const list = (body.orders as { order_uuid?: string }[] | undefined) ?? [];
      if (!list.length || list.length > 100) return invalid(res, 400, 'CREATE', 'v2_field_is_empty', 'orders must hold 1 to 100 orders');
      const unknown = list.find((o) => !o.order_uuid || !orders.has(o.order_uuid));
      if (unknown) return invalid(res, 400, 'CREATE', 'v2_entity_not_found', `Order ${unknown.order_uuid} not found`);
      const form: PrintForm = {
        uuid: randomUUID(),
        kind: m[1] as PrintForm['kind'],
        orders: list.map((o) => o.order_uuid!),
        format: String(body.format ?? 'A4'),
        gets: 0,
        statuses: [{ code: 'ACCEPTED', name: 'Принят', date_time: cdekDate(now()) }],
      };
      printForms.set(form.uuid, form);
      return json(res, 202, { entity: { uuid: form.uuid }, requests: [request('CREATE', 'ACCEPTED')] });
    }

    if ((m = /^\/print\/(barcodes|orders)\/([0-9a-f-]{36})(\.pdf)?$/.exec(path)) && method === 'GET') {
      const form = printForms.get(m[2]);
      if (!form || form.kind !== m[1]) return invalid(res, 404, 'GET', 'v2_entity_not_found', 'Print form not found');
      if (m[3]) {
        if (!form.statuses.some((s) => s.code === 'READY')) return invalid(res, 404, 'GET', 'v2_entity_not_found', 'The file is not ready');
        const what = form.kind === 'barcodes' ? `labels ${form.format}` : 'waybills';
        const pdf = tinyPdf(`CDEK ${what}: ${form.orders.map((u) => orders.get(u)?.cdekNumber ?? u).join(', ')}`);
        res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': pdf.length });
        return res.end(pdf);
      }
      form.gets++;
      if (form.gets >= (options.printPollsUntilReady ?? 1) && !form.statuses.some((s) => s.code === 'READY')) {
        form.statuses.push({ code: 'PROCESSING', name: 'Формируется', date_time: cdekDate(now()) }, { code: 'READY', name: 'Сформирован', date_time: cdekDate(now()) });
      }
      return json(res, 200, { entity: { uuid: form.uuid, orders: form.orders.map((order_uuid) => ({ order_uuid })), format: form.format, statuses: form.statuses }, requests: [] });
    }

    return topErrors(res, 404, 'v2_entity_not_found', `No route ${method} ${url.pathname}`);
  }

  function pickFault(routeKey: string): FaultKind | null {
    const i = forced.findIndex((f) => !f.route || f.route.test(routeKey));
    if (i >= 0) return forced.splice(i, 1)[0].kind;
    if (faultRate > 0 && faultKinds.length && (!faultRoutes || faultRoutes.test(routeKey)) && random() < faultRate) {
      return faultKinds[Math.floor(random() * faultKinds.length)];
    }
    return null;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const routeKey = `${req.method} ${url.pathname.replace(/\/[0-9a-f-]{36}/g, '/{uuid}')}`;
      stats.requests++;
      stats.byRoute[routeKey] = (stats.byRoute[routeKey] ?? 0) + 1;
      const raw = Buffer.concat(chunks).toString('utf8');
      const fault = pickFault(routeKey);
      if (fault) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
      if (fault === 'reset') return req.socket.destroy();
      if (fault === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (fault === '429') return json(res, 429, { errors: [{ code: 'too_many_requests', message: 'Rate limit' }] }, { 'Retry-After': '1' });
      if (fault === '500' || fault === '502' || fault === '503') return json(res, Number(fault), { errors: [{ code: 'v2_internal_error', message: 'Internal error' }] });
      if (fault === 'hang-after') {
        // Do the work, then lose the answer.
        const sink = new Proxy(res, {
          get(target, prop) {
            if (prop === 'writeHead' || prop === 'end') return () => sink;
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        });
        route(req, sink, raw, url);
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      try {
        route(req, res, raw, url);
      } catch (error) {
        json(res, 500, { errors: [{ code: 'v2_internal_error', message: String(error) }] });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const findOrder = (uuidOrNumber: string) => orders.get(uuidOrNumber) ?? latestByNumber(uuidOrNumber);

  return {
    /** Base URL, like `https://api.cdek.ru/v2`. */
    url: `http://127.0.0.1:${port}/v2`,
    stats,
    /** Accepted creates per im_number (the shop's order number). */
    registrations: (number: string) => registrations.get(number) ?? 0,
    registrationCounts: () => new Map(registrations),
    /** The next matching request(s) fail this way. */
    failNext(kind: FaultKind, count = 1, route?: RegExp) {
      for (let i = 0; i < count; i++) forced.push({ kind, route });
    },
    setFaultRate(rate: number) {
      faultRate = rate;
    },
    setValidation(mode: FakeCdekOptions['validation']) {
      validation = mode ?? 'next-get';
    },
    setTokenTtl(seconds: number) {
      tokenTtl = seconds;
    },
    setOffices(list: FakeOffice[]) {
      offices = list;
    },
    /** Every issued token stops working (CDEK answers v2_token_expired). */
    expireTokens() {
      tokens.clear();
    },
    /** Finishes CDEK's check of an order now (manual validation). */
    settle(uuidOrNumber: string, outcome?: 'SUCCESSFUL' | 'INVALID') {
      const order = findOrder(uuidOrNumber);
      if (!order) throw new Error(`fake CDEK: no order ${uuidOrNumber}`);
      validate(order, outcome);
    },
    /** Adds a status to an order, as CDEK's warehouse would. */
    pushStatus(uuidOrNumber: string, code: string, extra: { reasonCode?: string; city?: string; at?: number; deleted?: boolean } = {}) {
      const order = findOrder(uuidOrNumber);
      if (!order) throw new Error(`fake CDEK: no order ${uuidOrNumber}`);
      addStatus(order, code, extra);
      if (extra.deleted) order.statuses[order.statuses.length - 1].deleted = true;
    },
    order(uuidOrNumber: string) {
      const o = findOrder(uuidOrNumber);
      return o ? { uuid: o.uuid, number: o.number, cdekNumber: o.cdekNumber, body: o.body, state: createRequest(o).state, status: current(o), statuses: o.statuses.map((s) => s.code) } : null;
    },
    /** Courier requests as CDEK holds them (uuid → body, state, number, statuses). */
    intake: (uuid: string) => intakeDesk.intakes.get(uuid) ?? null,
    orders: () => [...orders.values()].map((o) => ({ uuid: o.uuid, number: o.number, cdekNumber: o.cdekNumber, state: createRequest(o).state, status: current(o) })),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeCdek = Awaited<ReturnType<typeof startFakeCdek>>;
