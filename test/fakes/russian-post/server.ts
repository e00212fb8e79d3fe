/**
 * A local fake of Russian Post's Otpravka API and its two tracking services, written from
 * shared/reference/carriers-ru.md, lapaygroup/RussianPost and appwilio/russianpost-sdk (facts only). Real HTTP on
 * 127.0.0.1: the access token and user key on every REST call (401 `{ code, sub-code, desc }` otherwise); orders wait in
 * the backlog (create, search by the shop's number, read, edit, delete), refusals of single orders inside HTTP 200
 * (`errors[{ error-codes, position }]`); batches per sending date and mail type, each order getting its ШПИ (14 digits,
 * with its check digit) when it joins one; the check-in (Ф103) and the print forms as real PDFs (Ф7, Ф112 for COD, the
 * forms of a backlog order, the Ф103 register once checked in); delivery points; the tariff; and 429/5xx/hangs/lost
 * replies on demand or at a seeded rate. Tracking is SOAP, served by the `soap` library from the same WSDL the
 * adapter's client reads: getOperationHistory (SOAP 1.2) and tickets (getTicket, getResponseByTicket, error 6 until
 * the ticket is ready on the fake's clock); operations advance over the fake's clock from the check-in. It counts
 * orders created per shop number so tests can assert "registered exactly once".
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { listen } from 'soap';
import { BATCH_TRACKING_WSDL, OPERATION_HISTORY_WSDL } from '../../../electron/core/providers/russian-post/wsdl';
import { printForm, sendJson, sendPdf, startFakeHttp, type Exchange, type FaultOptions } from '../fake-http';

export const FAKE_POST_TOKEN = 'rp-fake-access-token-0001';
/** base64("shop@example.ru:secret"), as the account's settings page gives it. */
export const FAKE_POST_USER_KEY = Buffer.from('shop@example.ru:secret').toString('base64');
export const FAKE_POST_TRACKING = { login: 'shoptrack', password: 'track-secret' };
/** The shop's post office (where it hands parcels over). */
export const FAKE_POST_OFFICE = '101000';

export interface FakePostPoint {
  'delivery-point-index': string;
  'delivery-point-type': 'POST_OFFICE' | 'DELIVERY_POINT' | 'PARCEL_LOCKER';
  address: { index: string; region: string; place: string; street: string; house: string };
  latitude: number;
  longitude: number;
  'card-payment': boolean;
  'cash-payment': boolean;
  'weight-limit': number;
  'work-time': string[];
  closed: boolean;
}

export const fakePostCities = [
  { name: 'Москва', region: 'Москва', lat: 55.75, lng: 37.61, index: 101 },
  { name: 'Санкт-Петербург', region: 'Санкт-Петербург', lat: 59.93, lng: 30.31, index: 190 },
  { name: 'Казань', region: 'Республика Татарстан', lat: 55.79, lng: 49.1, index: 420 },
  { name: 'Екатеринбург', region: 'Свердловская область', lat: 56.83, lng: 60.6, index: 620 },
];

/** Deterministic points: every 3rd an ECOM pickup point, every 5th a locker, the rest post offices; the first in Moscow is the shop's office. */
export function generatePostPoints(count: number): FakePostPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const city = fakePostCities[i % fakePostCities.length];
    const type = i % 5 === 4 ? 'PARCEL_LOCKER' : i % 3 === 2 ? 'DELIVERY_POINT' : 'POST_OFFICE';
    const index = `${city.index}${String(Math.floor(i / fakePostCities.length)).padStart(3, '0')}`;
    return {
      'delivery-point-index': index,
      'delivery-point-type': type,
      address: { index, region: city.region, place: city.name, street: 'ул. Почтовая', house: String(i + 1) },
      latitude: Number((city.lat + (i % 5) * 0.01).toFixed(5)),
      longitude: Number((city.lng + (i % 3) * 0.01).toFixed(5)),
      'card-payment': i % 2 === 0,
      'cash-payment': type !== 'PARCEL_LOCKER',
      'weight-limit': type === 'PARCEL_LOCKER' ? 15 : 20,
      'work-time': ['пн, 08:00-20:00', 'вт, 08:00-20:00', 'ср, 08:00-20:00', 'чт, 08:00-20:00', 'пт, 08:00-20:00', 'сб, 09:00-18:00', 'вс, выходной'],
      closed: false,
    };
  });
}

const HOUR = 60 * 60 * 1000;
/** Operations after the check-in: [ms after, type, attribute, name]. */
const timeline: Record<'office' | 'courier', [number, number, number, string][]> = {
  office: [
    [2 * HOUR, 1, 2, 'Приём: Партионный'], [6 * HOUR, 8, 1, 'Обработка: Покинуло место приёма'], [12 * HOUR, 8, 3, 'Обработка: Прибыло в сортировочный центр'],
    [14 * HOUR, 8, 4, 'Обработка: Покинуло сортировочный центр'], [30 * HOUR, 8, 2, 'Обработка: Прибыло в место вручения'], [50 * HOUR, 2, 1, 'Вручение: Вручение адресату'],
  ],
  courier: [
    [2 * HOUR, 1, 2, 'Приём: Партионный'], [6 * HOUR, 8, 1, 'Обработка: Покинуло место приёма'], [12 * HOUR, 8, 3, 'Обработка: Прибыло в сортировочный центр'],
    [30 * HOUR, 8, 15, 'Обработка: Передано курьеру'], [34 * HOUR, 2, 8, 'Вручение: Адресату курьером'],
  ],
};

interface FakeOrder {
  id: number;
  body: Record<string, any>;
  createdAt: number;
  batch: string | null;
  barcode: string | null;
  /** Operations the tracking service reports (set at batching and check-in). */
  operations: { at: number; type: number; attribute: number; name: string; index: string }[];
}

interface FakeBatch {
  name: string;
  mailType: string;
  mailCategory: string;
  sendingDate: string;
  postofficeCode: string;
  status: 'CREATED' | 'CHECKIN';
  ids: number[];
}

export interface FakePostOptions {
  now?: () => number;
  token?: string;
  userKey?: string;
  points?: FakePostPoint[];
  /** How long a tracking ticket takes to be ready on the fake's clock (the service says up to 15 minutes). */
  ticketDelayMs?: number;
  faults?: FaultOptions;
}

/** The ШПИ's check digit: odd positions ×3 plus even positions, to the next ten. */
function withCheckDigit(thirteen: string): string {
  const sum = [...thirteen].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return `${thirteen}${(10 - (sum % 10)) % 10}`;
}

const moscowDay = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 10);
const moscowIso = (ms: number) => `${new Date(ms + 3 * HOUR).toISOString().slice(0, 19)}.000+03:00`;
const moscowDotted = (ms: number) => {
  const [d, t] = new Date(ms + 3 * HOUR).toISOString().slice(0, 19).split('T');
  const [y, m, day] = d.split('-');
  return `${day}.${m}.${y} ${t}`;
};

export async function startFakeRussianPost(options: FakePostOptions = {}) {
  const now = options.now ?? (() => Date.now());
  let token = options.token ?? FAKE_POST_TOKEN;
  let userKey = options.userKey ?? FAKE_POST_USER_KEY;
  let points = options.points ?? generatePostPoints(40);
  const ticketDelayMs = options.ticketDelayMs ?? 15 * 60 * 1000;
  const orders = new Map<number, FakeOrder>();
  const batches = new Map<string, FakeBatch>();
  const registrations = new Map<string, number>();
  const tickets = new Map<string, { barcodes: string[]; readyAt: number }>();
  const counters = { unauthorized: 0, refusedOrders: 0, updates: 0, deletes: 0, checkins: 0, singleTracking: 0, tickets: 0, trackingAuthFailures: 0 };
  let idSeq = 115_322_000;
  let batchSeq = 100;
  let serial = 0;

  const point = (index: unknown) => points.find((p) => p['delivery-point-index'] === String(index));
  const reached = (o: FakeOrder) => o.operations.filter((op) => op.at <= now());
  const publicOrder = (o: FakeOrder) => ({
    id: o.id,
    ...o.body,
    ...(o.barcode ? { barcode: o.barcode, 'batch-name': o.batch } : {}),
    'human-operation-name': reached(o).at(-1)?.name ?? (o.batch ? 'Партия сформирована' : 'Новый'),
  });
  const error = (res: ServerResponse, status: number, subCode: string, desc: string) => sendJson(res, status, { code: String(1000 + status), 'sub-code': subCode, desc });

  /** The refusals of one order, as error-codes. */
  function refusals(o: Record<string, any> | undefined): { code: string; description: string }[] {
    if (!o || typeof o !== 'object') return [{ code: 'ILLEGAL_ORDER', description: 'Заказ не передан' }];
    const out: { code: string; description: string }[] = [];
    if (!o['order-num']) out.push({ code: 'EMPTY_ORDER_NUM', description: 'Не указан номер заказа' });
    if (!['POSTAL_PARCEL', 'ECOM', 'EMS'].includes(o['mail-type'])) out.push({ code: 'ILLEGAL_MAIL_TYPE', description: 'Недопустимый вид РПО' });
    if (!['ORDINARY', 'WITH_DECLARED_VALUE', 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY'].includes(o['mail-category'])) out.push({ code: 'ILLEGAL_MAIL_CATEGORY', description: 'Недопустимая категория РПО' });
    if (!o['index-to']) out.push({ code: 'EMPTY_INDEX_TO', description: 'Не указан индекс получателя' });
    else if (!/^\d{6}$/.test(String(o['index-to']))) out.push({ code: 'ILLEGAL_INDEX_TO', description: 'Неверный индекс получателя' });
    else if (!fakePostCities.some((c) => String(o['index-to']).startsWith(String(c.index)))) out.push({ code: 'UNDEFINED_INDEX_TO', description: 'Индекс получателя не обслуживается' });
    if (!o['place-to']) out.push({ code: 'EMPTY_PLACE_TO', description: 'Не указан населённый пункт получателя' });
    if (o['address-type-to'] === 'DEFAULT' && !o['ecom-data'] && !o['street-to']) out.push({ code: 'EMPTY_STREET_TO', description: 'Не указана улица получателя' });
    if (!(Number(o.mass) > 0)) out.push({ code: 'EMPTY_MASS', description: 'Не указан вес' });
    else if (Number(o.mass) > 20_000) out.push({ code: 'ILLEGAL_MASS_EXCESS', description: 'Превышен предельный вес' });
    if (!o.surname || !o['given-name']) out.push({ code: 'EMPTY_REC_NAME', description: 'Не указано ФИО получателя' });
    if (o['tel-address'] !== undefined && !/^7\d{10}$/.test(String(o['tel-address']))) out.push({ code: 'ILLEGAL_TEL_ADDRESS', description: 'Неверный телефон получателя' });
    if (o['mail-category'] === 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY' && !(Number(o.payment) > 0)) out.push({ code: 'EMPTY_PAYMENT', description: 'Не указана сумма наложенного платежа' });
    if (Number(o.payment) > Number(o['insr-value'] ?? 0)) out.push({ code: 'ILLEGAL_PAYMENT', description: 'Сумма наложенного платежа больше объявленной ценности' });
    if (o['mail-type'] === 'ECOM') {
      const target = point(o['ecom-data']?.['delivery-point-index']);
      if (!target) out.push({ code: 'ILLEGAL_DELIVERY_POINT_INDEX', description: 'Неверный индекс пункта выдачи ЕКОМ' });
      else if (target.closed) out.push({ code: 'DELIVERY_POINT_CLOSED', description: 'Пункт выдачи закрыт' });
    }
    if (o['postoffice-code'] && !point(o['postoffice-code'])) out.push({ code: 'ILLEGAL_POSTOFFICE_CODE', description: 'Неверный индекс места приёма' });
    return out;
  }

  function form(kind: string, lines: string[]) {
    return printForm([[`Russian Post ${kind}`, ...lines]], kind === 'F103' ? [595, 842] : [283, 425]);
  }

  async function rest({ req, res, url, body }: Exchange) {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (req.headers.authorization !== `AccessToken ${token}` || req.headers['x-user-authorization'] !== `Basic ${userKey}`) {
      counters.unauthorized++;
      return sendJson(res, 401, { code: '1001', 'sub-code': 'UNAUTHORIZED', desc: 'Неверный токен авторизации или ключ пользователя' });
    }
    const ids = Array.isArray(body) ? (body as unknown[]).map(Number) : [];

    if (method === 'GET' && path === '/1.0/user-shipping-points') {
      return sendJson(res, 200, [{ 'operator-postcode': FAKE_POST_OFFICE, 'ops-address': 'Москва, ул. Мясницкая, д. 26', enabled: true }]);
    }
    if (method === 'GET' && path === '/1.0/delivery-point/findAll') return sendJson(res, 200, points);

    if (method === 'PUT' && path === '/1.0/user/backlog') {
      if (!Array.isArray(body)) return sendJson(res, 400, { error: 'Тело запроса должно быть массивом заказов', status: 'BAD_REQUEST' });
      const resultIds: number[] = [];
      const errors: unknown[] = [];
      (body as Record<string, any>[]).forEach((o, position) => {
        const problems = refusals(o);
        if (problems.length) {
          counters.refusedOrders++;
          errors.push({ 'error-codes': problems, position });
          return;
        }
        const order: FakeOrder = { id: ++idSeq, body: o, createdAt: now(), batch: null, barcode: null, operations: [] };
        orders.set(order.id, order);
        registrations.set(String(o['order-num']), (registrations.get(String(o['order-num'])) ?? 0) + 1);
        resultIds.push(order.id);
      });
      return sendJson(res, 200, { 'result-ids': resultIds, ...(errors.length ? { errors } : {}) });
    }
    if (method === 'GET' && path === '/1.0/backlog/search') {
      const q = url.searchParams.get('query') ?? '';
      return sendJson(res, 200, [...orders.values()].filter((o) => !o.batch && String(o.body['order-num']) === q).map(publicOrder));
    }
    let m = /^\/1\.0\/backlog\/(\d+)$/.exec(path);
    if (m) {
      const o = orders.get(Number(m[1]));
      if (!o || o.batch) return error(res, 404, 'NOT_FOUND', `Заказ ${m[1]} не найден в новых`);
      if (method === 'GET') return sendJson(res, 200, publicOrder(o));
      if (method === 'PUT') {
        const problems = refusals(body as Record<string, any>);
        if (problems.length) return sendJson(res, 200, { errors: [{ 'error-codes': problems, position: 0 }] });
        o.body = body as Record<string, any>;
        counters.updates++;
        return sendJson(res, 200, { 'result-ids': [o.id] });
      }
    }
    if (method === 'DELETE' && (path === '/1.0/backlog' || path === '/1.0/shipment')) {
      const inBatch = path === '/1.0/shipment';
      const resultIds: number[] = [];
      const errors: unknown[] = [];
      ids.forEach((id, position) => {
        const o = orders.get(id);
        if (!o || !!o.batch !== inBatch) return void errors.push({ 'error-code': 'NOT_FOUND', position });
        if (o.batch && batches.get(o.batch)?.status === 'CHECKIN') return void errors.push({ 'error-code': 'BATCH_ALREADY_SENT', position });
        if (o.batch) batches.get(o.batch)!.ids = batches.get(o.batch)!.ids.filter((x) => x !== id);
        orders.delete(id);
        counters.deletes++;
        resultIds.push(id);
      });
      return sendJson(res, 200, { 'result-ids': resultIds, ...(errors.length ? { errors } : {}) });
    }

    if (method === 'POST' && path === '/1.0/user/shipment') {
      const date = url.searchParams.get('sending-date') ?? moscowDay(now());
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < moscowDay(now())) return sendJson(res, 200, { 'error-code': 'PAST_SENDING_DATE' });
      const formed = new Map<string, FakeBatch>();
      const resultIds: number[] = [];
      const errors: unknown[] = [];
      ids.forEach((id, position) => {
        const o = orders.get(id);
        if (!o || o.batch) return void errors.push({ 'error-code': o ? 'ALREADY_IN_BATCH' : 'NOT_FOUND', position });
        const key = `${o.body['mail-type']}|${o.body['mail-category']}`;
        let batch = formed.get(key);
        if (!batch) {
          batch = { name: String(++batchSeq), mailType: o.body['mail-type'], mailCategory: o.body['mail-category'], sendingDate: date, postofficeCode: String(o.body['postoffice-code'] ?? FAKE_POST_OFFICE), status: 'CREATED', ids: [] };
          formed.set(key, batch);
          batches.set(batch.name, batch);
        }
        batch.ids.push(id);
        o.batch = batch.name;
        const month = date.slice(5, 7);
        o.barcode = withCheckDigit(`${batch.postofficeCode}${month}${String(++serial).padStart(5, '0')}`);
        o.operations = [{ at: now(), type: 28, attribute: 0, name: 'Присвоение идентификатора', index: batch.postofficeCode }];
        resultIds.push(id);
      });
      return sendJson(res, 200, { batches: [...formed.values()].map(batchInfo), 'result-ids': resultIds, ...(errors.length ? { errors } : {}) });
    }
    m = /^\/1\.0\/batch\/([^/]+)(\/shipment|\/checkin)?$/.exec(path);
    if (m) {
      const batch = batches.get(decodeURIComponent(m[1]));
      if (!batch) return error(res, 404, 'BATCH_NOT_FOUND', `Партия ${m[1]} не найдена`);
      if (method === 'GET' && !m[2]) return sendJson(res, 200, batchInfo(batch));
      if (method === 'GET' && m[2] === '/shipment') return sendJson(res, 200, batch.ids.map((id) => publicOrder(orders.get(id)!)));
      if (method === 'POST' && m[2] === '/checkin') {
        if (batch.status === 'CHECKIN') return sendJson(res, 200, { 'f103-sent': false, 'error-code': 'ALREADY_SENT' });
        if (!batch.ids.length) return sendJson(res, 200, { 'f103-sent': false, 'error-code': 'EMPTY_BATCH' });
        batch.status = 'CHECKIN';
        counters.checkins++;
        const at = now();
        for (const id of batch.ids) {
          const o = orders.get(id)!;
          o.operations.push(...timeline[o.body.courier ? 'courier' : 'office'].map(([after, type, attribute, name]) => ({ at: at + after, type, attribute, name, index: after >= 30 * HOUR ? String(o.body['index-to']) : batch.postofficeCode })));
        }
        return sendJson(res, 200, { 'f103-sent': true });
      }
    }
    m = /^\/1\.0\/shipment\/(\d+)$/.exec(path);
    if (method === 'GET' && m) {
      const o = orders.get(Number(m[1]));
      if (!o || !o.batch) return error(res, 404, 'NOT_FOUND', `Отправление ${m[1]} не найдено в партиях`);
      return sendJson(res, 200, publicOrder(o));
    }
    if (method === 'GET' && path === '/1.0/shipment/search') {
      const q = url.searchParams.get('query') ?? '';
      return sendJson(res, 200, [...orders.values()].filter((o) => o.batch && (o.barcode === q || String(o.body['order-num']) === q)).map(publicOrder));
    }

    m = /^\/1\.0\/forms\/(?:(backlog)\/)?([^/]+)\/(forms|f7pdf|f112pdf|f103pdf)$/.exec(path);
    if (method === 'GET' && m) {
      const [, backlog, id, kind] = m;
      if (kind === 'f103pdf') {
        const batch = batches.get(id);
        if (!batch) return error(res, 404, 'BATCH_NOT_FOUND', `Партия ${id} не найдена`);
        if (batch.status !== 'CHECKIN') return sendJson(res, 200, { 'error-code': 'F103_NOT_SENT' });
        return sendPdf(res, await form('F103', [`Batch ${batch.name} ${batch.mailType} ${batch.sendingDate}`, ...batch.ids.map((i) => `${orders.get(i)!.barcode} ${orders.get(i)!.body['order-num']}`)]), `f103-${id}.pdf`);
      }
      const o = orders.get(Number(id));
      if (!o || (backlog ? !!o.batch : !o.batch)) return error(res, 404, 'NOT_FOUND', `Заказ ${id} не найден`);
      if (kind === 'f112pdf' && !o.body.payment) return sendJson(res, 200, { 'error-code': 'NO_CASH_ON_DELIVERY' });
      const name = kind === 'f112pdf' ? 'F112EK' : kind === 'forms' && backlog ? 'forms (backlog)' : 'F7p';
      return sendPdf(res, await form(name, [`Order ${o.body['order-num']}`, `Barcode ${o.barcode ?? '-'}`, `To ${o.body['index-to']} ${o.body['place-to']}`]), `${kind}-${id}.pdf`);
    }

    if (method === 'POST' && path === '/1.0/tariff') {
      const b = (body ?? {}) as Record<string, any>;
      const to = String(b['index-to'] ?? '');
      if (!/^\d{6}$/.test(to) || !fakePostCities.some((c) => to.startsWith(String(c.index)))) return sendJson(res, 400, { error: `Индекс ${to} не обслуживается`, status: 'BAD_REQUEST' });
      const mass = Number(b.mass ?? 0);
      const far = String(b['index-from']).slice(0, 3) !== to.slice(0, 3);
      const rate = 25_000 + Math.ceil(mass / 500) * 4_000 + (far ? 15_000 : 0) + (b['mail-type'] === 'ECOM' ? -5_000 : 0) + (b.courier ? 20_000 : 0);
      const cod = b['mail-category'] === 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY' ? Math.round(Number(b['declared-value'] ?? 0) * 0.04) : 0;
      return sendJson(res, 200, { 'total-rate': rate + cod, 'total-vat': Math.round((rate + cod) * 0.2), 'delivery-time': { 'min-days': far ? 3 : 1, 'max-days': far ? 6 : 2 } });
    }
    return error(res, 404, 'NOT_FOUND', `Нет метода ${method} ${path}`);
  }

  function batchInfo(b: FakeBatch) {
    return { 'batch-name': b.name, 'batch-status': b.status, 'mail-type': b.mailType, 'mail-category': b.mailCategory, 'list-number-date': b.sendingDate, 'shipment-count': b.ids.length, 'postoffice-code': b.postofficeCode };
  }

  // ------------------------------------------------------------ tracking (SOAP, served by the `soap` library)

  const soapFault = (reason: string, detail: Record<string, string>) => ({ Fault: { Code: { Value: 'soap:Sender' }, Reason: { Text: reason }, Detail: detail, statusCode: 500 } });
  const byBarcode = (barcode: string) => [...orders.values()].find((o) => o.barcode === barcode);
  const checkTrackingAuth = (login: unknown, password: unknown) => {
    if (login === FAKE_POST_TRACKING.login && password === FAKE_POST_TRACKING.password) return true;
    counters.trackingAuthFailures++;
    return false;
  };
  const soapServices = {
    OperationHistory12: {
      OperationHistory12Port: {
        getOperationHistory(args: any) {
          const auth = args.AuthorizationHeader ?? {};
          if (!checkTrackingAuth(auth.login, auth.password)) throw soapFault('Ошибка авторизации', { AuthorizationFaultReason: 'Неверный логин или пароль' });
          counters.singleTracking++;
          const barcode = String(args.OperationHistoryRequest?.Barcode ?? '');
          const o = byBarcode(barcode);
          if (!o) throw soapFault('Отправление не найдено', { OperationHistoryFaultReason: `Не найдено отправление ${barcode}` });
          return {
            OperationHistoryData: {
              historyRecord: reached(o).map((op) => ({
                AddressParameters: { OperationAddress: { Index: op.index, Description: `ОПС ${op.index}` } },
                ItemParameters: { Barcode: barcode },
                OperationParameters: { OperType: { Id: op.type, Name: op.name.split(':')[0] }, OperAttr: { Id: op.attribute, Name: op.name.split(': ')[1] ?? '' }, OperDate: moscowIso(op.at) },
              })),
            },
          };
        },
      },
    },
    FederalClient: {
      ItemDataServicePort: {
        getTicket(args: any) {
          if (!checkTrackingAuth(args.login, args.password)) return { error: { attributes: { ErrorTypeID: 1, ErrorName: 'Ошибка авторизации' } } };
          const items = Array.isArray(args.request?.Item) ? args.request.Item : args.request?.Item ? [args.request.Item] : [];
          const barcodes = items.map((i: any) => String(i.attributes?.Barcode ?? ''));
          if (!barcodes.length || barcodes.length > 3000) return { error: { attributes: { ErrorTypeID: 3, ErrorName: 'Неверное количество отправлений' } } };
          counters.tickets++;
          const ticket = `${moscowDay(now()).replace(/-/g, '')}${String(tickets.size + 1).padStart(6, '0')}`;
          tickets.set(ticket, { barcodes, readyAt: now() + ticketDelayMs });
          return { value: ticket };
        },
        getResponseByTicket(args: any) {
          if (!checkTrackingAuth(args.login, args.password)) return { error: { attributes: { ErrorTypeID: 1, ErrorName: 'Ошибка авторизации' } } };
          const t = tickets.get(String(args.ticket));
          if (!t) return { error: { attributes: { ErrorTypeID: 5, ErrorName: 'Билет не найден' } } };
          if (now() < t.readyAt) return { error: { attributes: { ErrorTypeID: 6, ErrorName: 'Ответ для билета ещё не готов' } } };
          return {
            value: {
              Item: t.barcodes.map((barcode) => {
                const o = byBarcode(barcode);
                if (!o) return { attributes: { Barcode: barcode }, Error: [{ attributes: { ErrorTypeID: 12, ErrorName: 'Отправление не найдено' } }] };
                return { attributes: { Barcode: barcode }, Operation: reached(o).map((op) => ({ attributes: { OperTypeID: op.type, OperCtgID: op.attribute, OperName: op.name, DateOper: moscowDotted(op.at), IndexOper: op.index } })) };
              }),
            },
          };
        },
      },
    },
  };
  const soapRequests = Object.assign(new EventEmitter(), { address: '127.0.0.1' });
  listen(soapRequests as never, { path: '/tracking/rtm34', services: soapServices, xml: OPERATION_HISTORY_WSDL });
  listen(soapRequests as never, { path: '/tracking/fc', services: soapServices, xml: BATCH_TRACKING_WSDL });
  const soapReady = new Promise<void>((resolve) => setImmediate(resolve));

  async function handle(exchange: Exchange) {
    if (exchange.url.pathname.startsWith('/tracking/')) {
      await soapReady;
      // The body is read already: the SOAP server takes it as express would give it.
      Object.assign(exchange.req, { body: exchange.raw });
      soapRequests.emit('request', exchange.req, exchange.res);
      return;
    }
    return rest(exchange);
  }

  const http = await startFakeHttp({
    faults: options.faults,
    routeKey: (method, url) => `${method} ${url.pathname.replace(/\/\d+(?=\/|$)/g, '/{id}')}`,
    faultBody: (status) => ({ code: String(1000 + status), 'sub-code': status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR', desc: status === 429 ? 'Слишком много запросов' : 'Внутренняя ошибка сервера' }),
    handle,
  });

  return {
    /** The Otpravka API's origin, like `https://otpravka-api.pochta.ru`. */
    url: http.origin,
    trackingUrls: { single: `${http.origin}/tracking/rtm34`, batch: `${http.origin}/tracking/fc` },
    stats: counters,
    http: http.stats,
    failNext: http.failNext,
    setFaultRate: http.setFaultRate,
    registrations: (orderNum: string) => registrations.get(orderNum) ?? 0,
    registrationCounts: () => new Map(registrations),
    setCredentials(next: { token?: string; userKey?: string }) {
      token = next.token ?? token;
      userKey = next.userKey ?? userKey;
    },
    setPoints(list: FakePostPoint[]) {
      points = list;
    },
    points: () => points,
    /** An order by the shop's number (the latest), or by Russian Post's id. */
    order(numOrId: string | number) {
      const o = typeof numOrId === 'number' ? orders.get(numOrId) : [...orders.values()].filter((x) => String(x.body['order-num']) === numOrId).at(-1);
      return o ? { id: o.id, body: o.body, batch: o.batch, barcode: o.barcode, operations: reached(o).map((op) => `${op.type}.${op.attribute}`) } : null;
    },
    batch: (name: string) => {
      const b = batches.get(name);
      return b ? { ...batchInfo(b), ids: [...b.ids] } : null;
    },
    batches: () => [...batches.values()].map(batchInfo),
    /** Adds a tracking operation to a barcode at `at` (now), as a post office would. */
    pushOperation(barcode: string, type: number, attribute: number, name = `Операция ${type}.${attribute}`, at = now()) {
      const o = byBarcode(barcode);
      if (!o) throw new Error(`fake Russian Post: no barcode ${barcode}`);
      o.operations = [...o.operations, { at, type, attribute, name, index: FAKE_POST_OFFICE }].sort((a, b) => a.at - b.at);
    },
    close: http.close,
  };
}

export type FakeRussianPost = Awaited<ReturnType<typeof startFakeRussianPost>>;
