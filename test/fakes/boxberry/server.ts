/**
 * A local fake of Boxberry's json.php API, written from shared/reference/carriers-ru.md and gwinn/boxberry-sdk's
 * models. Real HTTP on 127.0.0.1: one endpoint that dispatches on `method`, the token checked on every call (a wrong
 * one refused inside HTTP 200), refusals in all three of Boxberry's forms (`{err}`, `{error:true,message}`, an array
 * holding one), ParselCreate keeping the shop's number unique (and `updateByTrack` changes), ParcelInfo lookups by
 * number, statuses by name advancing over the fake's clock, CancelOrder's two types, points per city, label and act
 * links to real PDFs, DeliveryCosts to a point or by a courier index (fakeBoxberryIndexes) from its price list
 * (boxberryPrice), CreateIntake numbering courier intakes, and 429/5xx/hangs/lost replies on demand or at a seeded rate. It counts created parcels per shop
 * number so tests can assert "registered exactly once".
 */
import type { ServerResponse } from 'node:http';
import { printForm, sendJson, sendPdf, startFakeHttp, type Exchange, type FaultOptions } from '../fake-http';

export const FAKE_BOXBERRY_TOKEN = 'bb-fake-token-0001';

export interface FakeBoxberryPoint {
  Code: string;
  Name: string;
  Address: string;
  Phone: string;
  WorkShedule: string;
  GPS: string;
  CityCode: string;
  CityName: string;
  Area: string;
  OnlyPrepaidOrders: 'Yes' | 'No';
  Acquiring: 'Yes' | 'No';
  LoadLimit: string;
  Postamat: 'Yes' | 'No';
  ReceptionLaP: 'Yes' | 'No';
}

export interface FakeBoxberryOptions {
  now?: () => number;
  token?: string;
  points?: FakeBoxberryPoint[];
  faults?: FaultOptions;
}

export const fakeBoxberryCities = [
  { Code: '68', Name: 'Москва', Area: 'Москва', lat: 55.75, lng: 37.61 },
  { Code: '010', Name: 'Санкт-Петербург', Area: 'Санкт-Петербург', lat: 59.93, lng: 30.31 },
  { Code: '57', Name: 'Казань', Area: 'Татарстан', lat: 55.79, lng: 49.1 },
  { Code: '22', Name: 'Екатеринбург', Area: 'Свердловская', lat: 56.83, lng: 60.6 },
];

/** The fake's courier reach: the head post index of each of its cities → the city's code. */
export const fakeBoxberryIndexes: Record<string, string> = { '101000': '68', '190000': '010', '420000': '57', '620000': '22' };

/**
 * The fake's price list, in rubles: 200 plus 30 a started kilogram, 0.5 % of the declared value, the courier's extra;
 * the term in days. The kopecks part is kept (Boxberry prices are not whole rubles).
 */
export function boxberryPrice(grams: number, declaredRubles: number, courierRubles: number, days: number) {
  const base = 200 + 30 * Math.ceil(grams / 1000);
  const service = Math.round(declaredRubles * 0.5) / 100;
  return { price: Math.round((base + service + courierRubles) * 100) / 100, price_base: base + courierRubles, price_service: service, delivery_period: String(days) };
}

/** Deterministic points: every 5th a locker, every 4th prepaid only, every 3rd takes cards, every 7th takes no parcels in. */
export function generateBoxberryPoints(count: number): FakeBoxberryPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const city = fakeBoxberryCities[i % fakeBoxberryCities.length];
    const locker = i % 5 === 4;
    return {
      Code: String(10_000 + i * 3),
      Name: `${city.Name}, ${locker ? 'Постамат' : 'ПВЗ'} №${i + 1}`,
      Address: `${city.Name}, ул. Складская, д. ${i + 1}`,
      Phone: '8-800-700-54-30',
      WorkShedule: locker ? 'пн-вс:00.00-24.00' : 'пн-пт:10.00-20.00, сб:10.00-16.00',
      GPS: `${(city.lat + (i % 5) * 0.01).toFixed(5)},${(city.lng + (i % 3) * 0.01).toFixed(5)}`,
      CityCode: city.Code,
      CityName: city.Name,
      Area: city.Area,
      OnlyPrepaidOrders: i % 4 === 3 ? 'Yes' : 'No',
      Acquiring: i % 3 === 0 ? 'Yes' : 'No',
      LoadLimit: locker ? '15' : '31',
      Postamat: locker ? 'Yes' : 'No',
      ReceptionLaP: i % 7 === 6 ? 'No' : 'Yes',
    };
  });
}

const HOUR = 60 * 60 * 1000;
const pointTimeline = [
  { afterMs: 0, name: 'Загружен реестр ИМ' }, { afterMs: 6 * HOUR, name: 'Принято к доставке' }, { afterMs: 8 * HOUR, name: 'Передано на сортировку' },
  { afterMs: 12 * HOUR, name: 'Отправлен в город назначения' }, { afterMs: 24 * HOUR, name: 'Поступило в город назначения' },
  { afterMs: 30 * HOUR, name: 'Поступило в пункт выдачи' }, { afterMs: 50 * HOUR, name: 'Выдано' },
];
const courierTimeline = [...pointTimeline.slice(0, 5), { afterMs: 30 * HOUR, name: 'Передано на курьерскую доставку' }, { afterMs: 34 * HOUR, name: 'Выдано' }];

interface FakeParcel {
  track: string;
  orderId: string;
  sdata: Record<string, any>;
  statuses: { at: number; name: string; comment?: string }[];
  inAct: boolean;
}

/** Boxberry's dates: Moscow time, no zone. */
const moscow = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 19);

export async function startFakeBoxberry(options: FakeBoxberryOptions = {}) {
  const now = options.now ?? (() => Date.now());
  let token = options.token ?? FAKE_BOXBERRY_TOKEN;
  let points = options.points ?? generateBoxberryPoints(40);
  const parcels = new Map<string, FakeParcel>();
  const byOrder = new Map<string, FakeParcel>();
  const registrations = new Map<string, number>();
  const counters = { wrongToken: 0, duplicateRefusals: 0, updates: 0 };
  let seq = 41_000_000;
  let actSeq = 500;
  let origin = '';
  let costsAsked = 0;
  let intakeSeq = 7_700;
  const intakes = new Map<string, Record<string, string>>();

  const err = (res: ServerResponse, message: string) => sendJson(res, 200, { err: message });
  const reached = (p: FakeParcel) => p.statuses.filter((s) => s.at <= now());
  const last = (p: FakeParcel) => reached(p).at(-1)!.name;
  const handed = (p: FakeParcel) => reached(p).length > 1;
  const point = (code: unknown) => points.find((p) => p.Code === String(code));

  function refusal(sdata: Record<string, any> | undefined): string | null {
    if (!sdata || typeof sdata !== 'object') return 'Не переданы данные посылки (sdata)';
    if (!sdata.order_id) return 'Не указан номер заказа (order_id)';
    if (!sdata.customer?.fio) return 'Не указано ФИО получателя';
    if (!/^\+?\d{10,12}$/.test(String(sdata.customer?.phone ?? ''))) return 'Неверный телефон получателя';
    const dropOff = point(sdata.shop?.name1);
    if (!dropOff || dropOff.ReceptionLaP !== 'Yes') return 'Неверный код пункта приема (shop.name1)';
    const weight = Number(sdata.weights?.weight);
    if (!(weight > 0) || weight > 31_000) return 'Неверный вес посылки';
    if (sdata.vid === '1') {
      const target = point(sdata.shop?.name);
      if (!target) return 'Неверный код пункта выдачи (shop.name)';
      if (Number(sdata.payment_sum) > 0 && target.OnlyPrepaidOrders === 'Yes') return 'Пункт выдачи принимает только предоплаченные заказы: сумма к оплате должна быть 0';
    } else if (sdata.vid === '2') {
      if (!sdata.kurdost?.addressp) return 'Не указан адрес курьерской доставки';
      if (!fakeBoxberryCities.some((c) => c.Name === sdata.kurdost?.citi)) return 'Город курьерской доставки не обслуживается';
    } else return 'Неверный вид доставки (vid)';
    if (!Array.isArray(sdata.items) || sdata.items.length === 0) return 'Не переданы товары (items)';
    return null;
  }

  async function handle({ req, res, url, body }: Exchange) {
    if (url.pathname.startsWith('/labels/') || url.pathname.startsWith('/acts/')) {
      const id = decodeURIComponent(url.pathname.split('/').pop()!.replace(/\.pdf$/, ''));
      if (url.pathname.startsWith('/labels/')) {
        const p = parcels.get(id);
        if (!p) return sendJson(res, 404, { err: 'Нет такой этикетки' });
        return sendPdf(res, await printForm([['Boxberry', `Track ${p.track}`, `Order ${p.orderId}`, `To point ${p.sdata.shop?.name || '-'}`]]), `${id}.pdf`);
      }
      const inAct = [...parcels.values()].filter((p) => p.inAct && String(actSeq) >= id);
      return sendPdf(res, await printForm([['Boxberry act', `Act ${id}`, ...inAct.map((p) => `${p.orderId} ${p.track}`)]], [595, 842]), `act-${id}.pdf`);
    }
    if (url.pathname !== '/json.php') return sendJson(res, 404, { err: 'Not found' });
    const b = (body ?? {}) as Record<string, any>;
    const q = (name: string) => url.searchParams.get(name) ?? (b[name] !== undefined ? String(b[name]) : null);
    if (q('token') !== token) {
      counters.wrongToken++;
      return err(res, 'Ключ интеграции не найден или неактивен');
    }
    const method = q('method');

    if (method === 'ListCities') return sendJson(res, 200, fakeBoxberryCities.map(({ Code, Name }) => ({ Code, Name, ReceptionLaP: '1', DeliveryLaP: '1' })));
    if (method === 'ListPoints') {
      const city = q('CityCode');
      return sendJson(res, 200, points.filter((p) => !city || p.CityCode === city));
    }

    if (method === 'ParselCreate' && req.method === 'POST') {
      const sdata = b.sdata as Record<string, any> | undefined;
      if (sdata?.updateByTrack) {
        const p = parcels.get(String(sdata.updateByTrack));
        if (!p) return err(res, 'Посылка не найдена');
        if (handed(p)) return err(res, 'Посылка уже принята Boxberry, изменение невозможно');
        const problem = refusal(sdata);
        if (problem) return err(res, problem);
        p.sdata = sdata;
        counters.updates++;
        return sendJson(res, 200, { track: p.track, label: `${origin}/labels/${p.track}.pdf` });
      }
      const problem = refusal(sdata);
      if (problem) return err(res, problem);
      const orderId = String(sdata!.order_id);
      if (byOrder.has(orderId)) {
        counters.duplicateRefusals++;
        return err(res, `Посылка с номером заказа ${orderId} уже существует`);
      }
      const created = now();
      const p: FakeParcel = { track: String(++seq), orderId, sdata: sdata!, statuses: (sdata!.vid === '1' ? pointTimeline : courierTimeline).map((t) => ({ at: created + t.afterMs, name: t.name })), inAct: false };
      parcels.set(p.track, p);
      byOrder.set(orderId, p);
      registrations.set(orderId, (registrations.get(orderId) ?? 0) + 1);
      return sendJson(res, 200, { track: p.track, label: `${origin}/labels/${p.track}.pdf` });
    }

    if (method === 'ParcelInfo' && req.method === 'POST') {
      const wanted: { order_id?: string; track?: string }[] = Array.isArray(b.parcels) ? b.parcels : [];
      const found = wanted.map((w) => (w.track ? parcels.get(String(w.track)) : byOrder.get(String(w.order_id)))).filter((p): p is FakeParcel => !!p);
      if (!found.length) return sendJson(res, 200, { error: true, message: 'Посылка не найдена' });
      return sendJson(res, 200, found.map((p) => ({ order_id: p.orderId, track_number: p.track, delivery_type: p.sdata.vid, payment_amount: String(p.sdata.payment_sum ?? 0) })));
    }

    if (method === 'ListStatuses') {
      const p = parcels.get(q('ImId') ?? '') ?? byOrder.get(q('ImId') ?? '');
      if (!p) return err(res, 'Посылка не найдена');
      return sendJson(res, 200, reached(p).map((s) => ({ Date: moscow(s.at), Name: s.name, Comment: s.comment ?? '' })));
    }

    if (method === 'CancelOrder') {
      const p = parcels.get(q('track') ?? '') ?? byOrder.get(q('orderid') ?? '');
      if (!p) return sendJson(res, 200, [{ err: 'Посылка не найдена' }]);
      const type = q('cancelType');
      if (type !== '1' && type !== '2') return sendJson(res, 200, [{ err: 'Неверный тип отмены (cancelType): допустимы 1 и 2' }]);
      const state = last(p);
      if (state === 'Выдано') return sendJson(res, 200, [{ err: 'Посылка уже выдана получателю' }]);
      if (type === '1') {
        if (handed(p)) return sendJson(res, 200, [{ err: 'Посылка уже принята, удаление невозможно: используйте отзыв (cancelType=2)' }]);
        p.statuses = [...reached(p), { at: now(), name: 'Удален' }];
      } else {
        if (!handed(p)) return sendJson(res, 200, [{ err: 'Посылка ещё не передана в Boxberry: используйте удаление (cancelType=1)' }]);
        p.statuses = [...reached(p), { at: now(), name: 'Готовится к возврату', comment: 'Отзыв интернет-магазином' }];
      }
      return sendJson(res, 200, { text: 'ok' });
    }

    if (method === 'ParselCheck') {
      const p = parcels.get(q('ImId') ?? '') ?? byOrder.get(q('ImId') ?? '');
      if (!p) return err(res, 'Посылка не найдена');
      return sendJson(res, 200, { label: `${origin}/labels/${p.track}.pdf` });
    }

    if (method === 'ParselSend') {
      const ids = (q('ImIds') ?? '').split(',').filter(Boolean);
      const found = ids.map((id) => parcels.get(id));
      if (!ids.length || found.some((p) => !p)) return err(res, 'Посылка не найдена');
      if (found.some((p) => p!.inAct)) return err(res, 'Посылка уже включена в акт');
      for (const p of found) p!.inAct = true;
      actSeq++;
      return sendJson(res, 200, { id: String(actSeq), label: `${origin}/acts/${actSeq}.pdf` });
    }

    if (method === 'DeliveryCosts') {
      const weight = Number(q('weight'));
      if (!(weight > 0) || weight > 31_000) return err(res, 'Неверный вес посылки');
      const paysum = Number(q('paysum') ?? 0);
      let days: number;
      let courier = 0;
      if (q('target')) {
        const target = point(q('target'));
        if (!target) return err(res, 'Неверный код пункта выдачи (target)');
        if (paysum > 0 && target.OnlyPrepaidOrders === 'Yes') return err(res, 'Пункт выдачи принимает только предоплаченные заказы');
        days = target.CityCode === '68' ? 1 : 3;
      } else if (q('zip')) {
        const city = fakeBoxberryIndexes[q('zip')!];
        if (!city) return err(res, 'Курьерская доставка по индексу не осуществляется');
        days = city === '68' ? 1 : 4;
        courier = 150;
      } else return err(res, 'Не указан пункт выдачи (target) или индекс (zip)');
      costsAsked++;
      return sendJson(res, 200, boxberryPrice(weight, Number(q('ordersum') ?? 0), courier, days));
    }

    if (method === 'CreateIntake') {
      const day = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(q('take_date') ?? '');
      if (!day) return err(res, 'Неверная дата забора (take_date), формат ДД.ММ.ГГГГ');
      if (new Date(`${day[3]}-${day[2]}-${day[1]}T12:00:00Z`).getUTCDay() === 0) return err(res, 'В воскресенье забор не осуществляется');
      if (!fakeBoxberryCities.some((c) => c.Name === q('city'))) return err(res, 'Забор в этом городе не осуществляется');
      if (!q('street')) return err(res, 'Не указан адрес забора');
      if (!/^\+?\d{10,12}$/.test(q('contact_phone') ?? '')) return err(res, 'Неверный телефон контактного лица');
      if (!(Number(q('weight')) > 0)) return err(res, 'Не указан вес');
      const id = String(++intakeSeq);
      intakes.set(id, Object.fromEntries(url.searchParams.entries()));
      return sendJson(res, 200, { message: `Заявка на забор № ${id} принята` });
    }

    return err(res, `Метод ${method} не найден`);
  }

  const http = await startFakeHttp({
    faults: options.faults,
    routeKey: (method, url) => `${method} ${url.pathname === '/json.php' ? (url.searchParams.get('method') ?? '') : url.pathname.replace(/\/[^/]+\.pdf$/, '/{file}')}`,
    faultBody: (status) => ({ err: status === 429 ? 'Слишком много запросов' : 'Внутренняя ошибка сервера' }),
    handle,
  });
  origin = http.origin;

  return {
    /** The endpoint, like `https://api.boxberry.ru/json.php`. */
    url: `${http.origin}/json.php`,
    /** Calls refused for a wrong token, duplicate numbers refused, changes made. */
    stats: counters,
    http: http.stats,
    failNext: http.failNext,
    setFaultRate: http.setFaultRate,
    registrations: (orderId: string) => registrations.get(orderId) ?? 0,
    /** Prices given (DeliveryCosts answered with a price). */
    costsAsked: () => costsAsked,
    /** A courier intake as it was asked (its parameters), by the number the fake gave it. */
    intake: (id: string) => intakes.get(id) ?? null,
    registrationCounts: () => new Map(registrations),
    setToken(next: string) {
      token = next;
    },
    setPoints(list: FakeBoxberryPoint[]) {
      points = list;
    },
    points: () => points,
    /** Adds a status by name at `at` (now), as Boxberry's warehouse would; later planned ones stay. */
    pushStatus(track: string, name: string, at = now()) {
      const p = parcels.get(track);
      if (!p) throw new Error(`fake Boxberry: no parcel ${track}`);
      p.statuses = [...p.statuses, { at, name }].sort((a, b) => a.at - b.at);
    },
    parcel(trackOrOrder: string) {
      const p = parcels.get(trackOrOrder) ?? byOrder.get(trackOrOrder);
      return p ? { track: p.track, orderId: p.orderId, sdata: p.sdata, status: last(p), inAct: p.inAct } : null;
    },
    close: http.close,
  };
}

export type FakeBoxberry = Awaited<ReturnType<typeof startFakeBoxberry>>;
