import type { StatusKey } from '../../shared/status-keys';
import { formatTimestamp } from '../../shared/time';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

const xml = { Accept: 'application/xml' };
/** A moment on the shop's own clock in March 2026, so calendar-date parameters mean the same in any time zone. */
const local = (day: number, hour: number, minute = 0) => new Date(2026, 2, day, hour, minute).getTime();
const stamp = (ms: number) => encodeURIComponent(formatTimestamp(ms));
const keys = (statuses: { key: string }[]) => statuses.map((s) => s.key);
/** rows of a history list as [clientNumber, status keys]. */
const summary = (rows: { orderInfo: { clientNumber: string }; statuses: { key: string }[] }[]) => rows.map((r) => [r.orderInfo.clientNumber, keys(r.statuses)]);

describe('company-wide status lists', () => {
  let server: TestServer;
  async function orderWith(clientNumber: string, statuses: [StatusKey, number][], options: { token?: string; post?: boolean } = {}) {
    const body = orderPayload(clientNumber, (o) => {
      if (options.post) Object.assign(o.order, { providerKey: 'sandbox-post', tariffId: 202, pickupType: 2 });
    });
    const res = await server.call('POST', '/orders', { body, token: options.token });
    expect(res.status).toBe(200);
    const company = options.token === server.tokenB ? server.companyB : server.companyA;
    for (const [key, at] of statuses) await server.app.stores.orders.appendStatus(Number(res.json.orderId), company.companyId, { key, at });
    return res.json.orderId as string;
  }

  beforeAll(async () => {
    server = await startTestServer();
    server.clock.set(local(1, 10)); // every order starts with `uploading` on 1 March
    await orderWith('L-1', [['onWay', local(2, 12)], ['delivered', local(3, 15)]]);
    await orderWith('L-2', [['onPointIn', local(2, 18)]], { post: true });
    await orderWith('L-3', []);
    await orderWith('L-B', [['onWay', local(2, 13)]], { token: server.tokenB });
    server.clock.set(local(5, 9));
  });
  afterAll(() => server.close());

  describe('GET /orders/statuses/date/{date}', () => {
    it('answers a bare array of the orders changed after a timestamp, oldest change first', async () => {
      const res = await server.call('GET', `/orders/statuses/date/${stamp(local(2, 0))}`);
      expect(res.status).toBe(200);
      expect(res.json.map((r: { orderInfo: { clientNumber: string }; status: { key: string } }) => [r.orderInfo.clientNumber, r.status.key])).toEqual([
        ['L-2', 'onPointIn'],
        ['L-1', 'delivered'],
      ]);
      expect(Object.keys(res.json[0])).toEqual(['orderInfo', 'status']);
    });

    it('counts strictly after a timestamp, so a client can poll with the last created it saw', async () => {
      const res = await server.call('GET', `/v1/orders/statuses/date/${stamp(local(2, 18))}`);
      expect(res.json.map((r: { orderInfo: { clientNumber: string } }) => r.orderInfo.clientNumber)).toEqual(['L-1']);
    });

    it('takes a calendar date (from that day\'s start) and an unencoded offset alike', async () => {
      const byDate = await server.call('GET', '/orders/statuses/date/2026-03-02');
      const byStamp = await server.call('GET', `/orders/statuses/date/${formatTimestamp(local(2, 0))}`);
      expect(byDate.json).toHaveLength(2);
      expect(byStamp.json).toEqual(byDate.json);
      expect(await server.call('GET', '/orders/statuses/date/2026-03-04').then((r) => r.json)).toEqual([]);
    });

    it('answers in XML as a list of item under response', async () => {
      const res = await server.call('GET', '/orders/statuses/date/2026-03-02', { headers: xml });
      expect(res.text).toMatch(/^<\?xml[^>]*\?>\n<response><item><orderInfo>.*<clientNumber>L-2<\/clientNumber>.*<\/item><item>.*<clientNumber>L-1<\/clientNumber>.*<\/item><\/response>$/s);
    });

    it.each(['yesterday', '2026-13-01', '2026-02-30', '2026-02-30T10:00:00+03:00', '01.03.2026'])('refuses the date %s with 040002', async (date) => {
      const res = await server.call('GET', `/orders/statuses/date/${date}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040002', errors: [{ field: 'date' }] });
    });

    it('shows a company only its own orders', async () => {
      const res = await server.call('GET', '/orders/statuses/date/2026-03-02', { token: server.tokenB });
      expect(res.json.map((r: { orderInfo: { clientNumber: string } }) => r.orderInfo.clientNumber)).toEqual(['L-B']);
    });
  });

  describe('GET /orders/statuses/history/date/{date}', () => {
    it('lists every status change since the date, grouped by order, newest first within an order', async () => {
      const res = await server.call('GET', '/orders/statuses/history/date/2026-03-02');
      expect(res.status).toBe(200);
      expect(summary(res.json.rows)).toEqual([
        ['L-1', ['delivered', 'onWay']],
        ['L-2', ['onPointIn']],
      ]);
      expect(res.json.meta).toEqual({ total: 2, offset: 0, limit: 100 });
      expect(res.json.rows[0].orderInfo).toMatchObject({ providerKey: 'sandbox-express', clientNumber: 'L-1' });
    });

    it('pages by order with offset and limit up to 1000', async () => {
      const res = await server.call('GET', `/v1/orders/statuses/history/date/${stamp(local(1, 12))}?offset=1&limit=1`);
      expect(summary(res.json.rows)).toEqual([['L-2', ['onPointIn']]]);
      expect(res.json.meta).toEqual({ total: 2, offset: 1, limit: 1 });
      expect((await server.call('GET', '/orders/statuses/history/date/2026-03-02?limit=1000')).status).toBe(200);
    });

    it.each([['limit=1001', 'limit'], ['limit=0', 'limit'], ['offset=-1', 'offset']])('refuses %s with 040002', async (query, field) => {
      const res = await server.call('GET', `/orders/statuses/history/date/2026-03-02?${query}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040002', errors: [{ field }] });
    });

    it('refuses a date that is not one with 040002, in XML too', async () => {
      const res = await server.call('GET', '/orders/statuses/history/date/soon', { headers: xml });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<code>040002</code>');
      expect(res.text).toContain('<field>date</field>');
    });

    it('answers in XML: rows and statuses as item lists, meta with total, offset and limit', async () => {
      const res = await server.call('GET', '/orders/statuses/history/date/2026-03-02?limit=1', { headers: xml });
      expect(res.text).toMatch(
        /<response><rows><item><orderInfo>.*<clientNumber>L-1<\/clientNumber>.*<\/orderInfo><statuses><item><key>delivered<\/key>.*<\/item><item><key>onWay<\/key>.*<\/item><\/statuses><\/item><\/rows><meta><total>2<\/total><offset>0<\/offset><limit>1<\/limit><\/meta><\/response>$/s,
      );
    });
  });

  describe('GET /orders/statuses/interval', () => {
    it('lists the changes between from and to, both included', async () => {
      const res = await server.call('GET', `/orders/statuses/interval?from=${stamp(local(2, 12))}&to=${stamp(local(2, 18))}`);
      expect(res.status).toBe(200);
      expect(summary(res.json.rows)).toEqual([
        ['L-1', ['onWay']],
        ['L-2', ['onPointIn']],
      ]);
      expect(res.json.meta).toEqual({ total: 2, offset: 0, limit: 100 });
      const later = await server.call('GET', `/orders/statuses/interval?from=${stamp(local(2, 12) + 1000)}&to=${stamp(local(2, 18))}`);
      expect(summary(later.json.rows)).toEqual([['L-2', ['onPointIn']]]);
    });

    it('a calendar date as to covers that whole day; no to means up to now', async () => {
      const day = await server.call('GET', '/orders/statuses/interval?from=2026-03-02&to=2026-03-02');
      expect(summary(day.json.rows)).toEqual([
        ['L-1', ['onWay']],
        ['L-2', ['onPointIn']],
      ]);
      const open = await server.call('GET', '/orders/statuses/interval?from=2026-03-03');
      expect(summary(open.json.rows)).toEqual([['L-1', ['delivered']]]);
    });

    it('takes an unencoded + in the offset of a timestamp', async () => {
      const res = await server.call('GET', `/orders/statuses/interval?from=${formatTimestamp(local(2, 12))}&to=${formatTimestamp(local(2, 12))}`);
      expect(summary(res.json.rows)).toEqual([['L-1', ['onWay']]]);
    });

    it('narrows by filter: service, status keys, order fields', async () => {
      const q = (filter: string) => server.call('GET', `/orders/statuses/interval?from=2026-03-01&filter=${encodeURIComponent(filter)}`).then((r) => summary(r.json.rows));
      expect(await q('providerKey=sandbox-post')).toEqual([['L-2', ['onPointIn', 'uploading']]]);
      expect(await q('key=[delivered,onWay]')).toEqual([['L-1', ['delivered', 'onWay']]]);
      expect(await q("clientNumber='L-3';key=uploading")).toEqual([['L-3', ['uploading']]]);
      expect(await q('clientNumber%L-;providerKey=sandbox-express;key=onWay')).toEqual([['L-1', ['onWay']]]);
    });

    it('a malformed filter is 040010 and a field it cannot filter on 040011', async () => {
      const malformed = await server.call('GET', `/orders/statuses/interval?from=2026-03-01&filter=${encodeURIComponent('providerKey')}`);
      expect(malformed.status).toBe(400);
      expect(malformed.json.code).toBe('040010');
      const trailing = await server.call('GET', `/orders/statuses/interval?from=2026-03-01&filter=${encodeURIComponent('key=onWay;')}`);
      expect(trailing.json.code).toBe('040010');
      const unknown = await server.call('GET', `/orders/statuses/interval?from=2026-03-01&filter=${encodeURIComponent('city=Москва')}`, { headers: xml });
      expect(unknown.status).toBe(400);
      expect(unknown.text).toContain('<code>040011</code>');
    });

    it('from is required, to may not be before it, limit is at most 1000', async () => {
      const cases: [string, string][] = [
        ['', 'from'],
        ['from=later', 'from'],
        ['from=2026-03-02&to=2026-03-01', 'to'],
        ['from=2026-03-02&limit=1001', 'limit'],
      ];
      for (const [query, field] of cases) {
        const res = await server.call('GET', `/orders/statuses/interval?${query}`);
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: '040002', errors: [{ field }] });
      }
    });

    it('answers in XML', async () => {
      const res = await server.call('GET', '/v1/orders/statuses/interval?from=2026-03-02&to=2026-03-02&limit=1', { headers: xml });
      expect(res.text).toMatch(/<response><rows><item><orderInfo>.*<statuses><item><key>onWay<\/key>.*<meta><total>2<\/total><offset>0<\/offset><limit>1<\/limit><\/meta><\/response>$/s);
    });
  });
});
