import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { pointSchema, tariffSchema, type Point } from '../../shared/schemas/lists';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A query string the way a careful client builds it (every value URL-encoded). */
const q = (params: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const xml = { Accept: 'application/xml' };
const parseXml = (text: string) => new XMLParser({ parseTagValue: false, isArray: (name) => name === 'item' }).parse(text).response;

describe('GET /v1/lists/points', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const points = async (params: Record<string, string | number>, path = '/v1/lists/points') => {
    const res = await server.call('GET', path + q(params));
    expect(res.status, res.text).toBe(200);
    return res.json as { rows: Point[]; meta: { total: number; offset: number; limit: number } };
  };

  it('answers the paged envelope with complete point records, 100 by default', async () => {
    const page = await points({});
    expect(Object.keys(page)).toEqual(['rows', 'meta']);
    expect(Object.keys(page.meta)).toEqual(['total', 'offset', 'limit']);
    expect(page.meta).toEqual({ total: expect.any(Number), offset: 0, limit: 100 });
    expect(page.meta.total).toBeGreaterThanOrEqual(5000);
    expect(page.rows).toHaveLength(100);
    for (const p of page.rows) expect(pointSchema.strict().parse(p)).toEqual(p);
  });

  it('is the same list with and without /v1, and with a trailing slash', async () => {
    const params = { filter: 'city=Казань', limit: 5 };
    const withV1 = await points(params);
    expect(await points(params, '/lists/points')).toEqual(withV1);
    expect(await points(params, '/v1/lists/points/')).toEqual(withV1);
  });

  it('filters by city and delivery service as the interface describes, every row matching', async () => {
    const page = await points({ filter: 'city=Москва;providerKey=sandbox-express', limit: 1000 });
    expect(page.meta.total).toBeGreaterThan(100);
    for (const p of page.rows) {
      expect(p.providerKey).toBe('sandbox-express');
      expect(p.city).toBe('Москва');
    }
  });

  it('takes the filter as integrations send it: unencoded Cyrillic, = and ; in the query', async () => {
    const res = await server.call('GET', '/v1/lists/points?limit=3&filter=city=Санкт-Петербург;providerKey=sandbox-post;availableOperation=[2,3]');
    expect(res.status).toBe(200);
    expect(res.json.rows.every((p: Point) => p.city === 'Санкт-Петербург' && p.providerKey === 'sandbox-post')).toBe(true);
  });

  it('a city filter also finds points of a settlement within the city, and ignores letter case and ё', async () => {
    const zelenograd = await points({ filter: 'city=Зеленоград', limit: 1000 });
    expect(zelenograd.meta.total).toBeGreaterThan(0);
    expect(zelenograd.rows.every((p) => p.city === 'Москва' && p.community === 'Зеленоград')).toBe(true);
    expect((await points({ filter: 'city=москва' })).meta.total).toBe((await points({ filter: 'city=Москва' })).meta.total);
    const korolev = await points({ filter: 'city=Королев', limit: 1 });
    expect(korolev.meta.total).toBeGreaterThan(0);
    expect(korolev.rows[0].city).toBe('Королёв');
  });

  it('pages through a city without gaps or repeats, meta echoing offset and limit', async () => {
    const filter = 'city=Екатеринбург';
    const first = await points({ filter, limit: 40 });
    const ids: number[] = [];
    for (let offset = 0; offset < first.meta.total; offset += 40) {
      const page = await points({ filter, limit: 40, offset });
      expect(page.meta).toEqual({ total: first.meta.total, offset, limit: 40 });
      ids.push(...page.rows.map((p) => p.id));
    }
    expect(new Set(ids).size).toBe(first.meta.total);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const past = await points({ filter, offset: first.meta.total + 10 });
    expect(past).toEqual({ rows: [], meta: { total: first.meta.total, offset: first.meta.total + 10, limit: 100 } });
  });

  it('filters with arrays, >, < and substrings, on nested limits too', async () => {
    const lockers = await points({ filter: 'providerKey=sandbox-lockers;type=2;availableOperation=[2,3];limits.maxWeight>10000', limit: 1000 });
    expect(lockers.meta.total).toBeGreaterThan(0);
    for (const p of lockers.rows) expect(p).toMatchObject({ type: 2, limits: { maxWeight: 15000 } });
    const byName = await points({ filter: 'name%экспресс на ул. ленина', limit: 1000 });
    expect(byName.meta.total).toBeGreaterThan(0);
    for (const p of byName.rows) expect(p.name).toMatch(/^Экспресс на ул\. Ленина/);
    const some = await points({ filter: 'id=[100001,200001,300001,1]' });
    expect(some.rows.map((p) => p.id)).toEqual([100001, 200001, 300001]);
    const quoted = await points({ filter: `code='MSK-T1'` });
    expect(quoted.rows.map((p) => p.code)).toEqual(['MSK-T1']);
    const cod = await points({ filter: 'providerKey=sandbox-post;limits.maxCod<200000;city=Тула' });
    for (const p of cod.rows) expect(p.limits.maxCod).toBeLessThan(200000);
  });

  it('returns only the fields asked for', async () => {
    const page = await points({ fields: 'id,providerKey,name,limits', limit: 2 });
    for (const p of page.rows) expect(Object.keys(p)).toEqual(['id', 'providerKey', 'name', 'limits']);
    const spaced = await points({ fields: ' name , id ', limit: 1 });
    expect(Object.keys(spaced.rows[0])).toEqual(['id', 'name']);
  });

  it('answers in XML: response root, rows as item, flags 1/0, worktime by day', async () => {
    const res = await server.call('GET', `/v1/lists/points${q({ filter: 'providerKey=sandbox-lockers;type=2', limit: 2 })}`, { headers: xml });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    expect(XMLValidator.validate(res.text)).toBe(true);
    const body = parseXml(res.text);
    expect(body.meta).toEqual({ total: expect.stringMatching(/^\d+$/), offset: '0', limit: '2' });
    expect(body.rows.item).toHaveLength(2);
    const p = body.rows.item[0];
    expect(p).toMatchObject({ providerKey: 'sandbox-lockers', type: '2', cod: '0', enabled: expect.stringMatching(/^[01]$/) });
    expect(p.worktime.item[0]).toEqual({ day: '1', hours: expect.stringMatching(/^\d{2}:\d{2}\/\d{2}:\d{2}$/) });
    expect(p.limits.maxSizeA).toMatch(/^\d+$/);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 1001 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ offset: 'x' }, 'offset'],
    [{ offset: '1e3' }, 'offset'],
  ])('refuses paging %j with 040002 naming %s', async (params, field) => {
    const res = await server.call('GET', `/v1/lists/points${q(params)}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: '040002', errors: [{ field, message: expect.any(String) }] });
  });

  it('takes the largest page, 1000', async () => {
    expect((await points({ limit: 1000 })).rows).toHaveLength(1000);
  });

  it.each([
    ['city=Москва;', '040010'],
    ['city=', '040010'],
    ['id>[1,2]', '040010'],
    ['id=abc', '040010'],
    ["name='unterminated", '040010'],
    ['type>=2', '040010'],
    ['worktime=1', '040011'],
    ['limits=1', '040011'],
    ['nosuchfield=1', '040011'],
  ])('refuses the filter %s with %s, in the error body of the interface', async (filter, code) => {
    const res = await server.call('GET', `/v1/lists/points${q({ filter })}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code, message: expect.any(String), description: expect.any(String), ...(res.json.errors ? { errors: expect.any(Array) } : {}) });
  });

  it('refuses an unknown field in fields with 040012, also in XML', async () => {
    const res = await server.call('GET', `/v1/lists/points${q({ fields: 'id,colour' })}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: '040012', errors: [{ field: 'fields', message: expect.stringContaining('colour') }] });
    const inXml = await server.call('GET', `/v1/lists/points${q({ fields: 'colour' })}`, { headers: xml });
    expect(parseXml(inXml.text)).toMatchObject({ code: '040012' });
  });

  it('counts again once points change', async () => {
    const filter = { filter: 'city=Тестоград', limit: 1 };
    expect((await points(filter)).meta.total).toBe(0);
    const [sample] = (await points({ limit: 1 })).rows;
    await server.app.stores.reference.putPoints('test', [{ ...sample, id: 9999001, code: 'T1', city: 'Тестоград', community: null }]);
    expect((await points(filter)).meta.total).toBe(1);
    await server.app.stores.reference.forgetSource('test');
    expect((await points(filter)).meta.total).toBe(0);
  });

  it('needs the API token', async () => {
    const res = await server.call('GET', '/v1/lists/points', { token: null });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('040101');
  });
});

describe('GET /v1/lists/points, kept pages', () => {
  let server: TestServer;
  // Small enough that a few 1,000-point pages overflow it.
  const bound = 2 * 1024 * 1024;
  beforeAll(async () => {
    server = await startTestServer({ pointPageCacheBytes: bound });
  });
  afterAll(() => server.close());

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await server.call('GET', `/v1/lists/points${query}`, { headers });
    expect(res.status, res.text).toBe(200);
    return res;
  };
  const reference = () => server.app.stores.reference;

  it('answers a page asked again with the same bytes, in JSON and in XML, the same filter however it is written', async () => {
    const before = server.app.services.lists.pointPageCache();
    const query = `?filter=${encodeURIComponent('city=Москва;providerKey=sandbox-express')}&limit=50`;
    const json = await get(query);
    const again = await get(query);
    expect(again.text).toBe(json.text);
    expect(again.headers.get('content-type')).toBe(json.headers.get('content-type'));
    expect(Number(again.headers.get('content-length'))).toBe(Buffer.byteLength(json.text));
    const spelledOtherwise = await get(`?filter=${encodeURIComponent(' city = Москва ; providerKey = "sandbox-express" ')}&limit=50&offset=0`);
    expect(spelledOtherwise.text).toBe(json.text);
    const inXml = await get(query, xml);
    expect(inXml.headers.get('content-type')).toMatch(/xml/);
    expect((await get(query, xml)).text).toBe(inXml.text);
    expect(parseXml(inXml.text).meta).toEqual(parseXml(inXml.text).meta);
    expect(Number(parseXml(inXml.text).meta.total)).toBe(json.json.meta.total);
    const after = server.app.services.lists.pointPageCache();
    expect(after.hits - before.hits).toBe(3);
    expect(after.misses - before.misses).toBe(2);
  });

  it('sees a change to the points on the next request: a point added, closed, a source forgotten, a dataset loaded', async () => {
    const query = `?filter=${encodeURIComponent('city=Кешград')}&fields=id,name,enabled`;
    expect((await get(query)).json).toEqual({ rows: [], meta: { total: 0, offset: 0, limit: 100 } });
    const [sample] = (await get('?limit=1')).json.rows as Point[];
    await reference().putPoints('cache-test', [{ ...sample, id: 9999101, code: 'K1', city: 'Кешград', community: null, name: 'Первый' }]);
    expect((await get(query)).json.rows).toEqual([{ id: 9999101, name: 'Первый', enabled: 1 }]);
    await reference().putPoints('cache-test', [{ ...sample, id: 9999101, code: 'K1', city: 'Кешград', community: null, name: 'Переименован' }]);
    expect((await get(query)).json.rows).toEqual([{ id: 9999101, name: 'Переименован', enabled: 1 }]);
    await reference().closePointsExcept('cache-test', new Set());
    expect((await get(query)).json.rows).toEqual([{ id: 9999101, name: 'Переименован', enabled: 0 }]);
    await reference().forgetSource('cache-test');
    expect((await get(query)).json.meta.total).toBe(0);
    await reference().replaceDataset('cache-dataset', { points: [{ ...sample, id: 9999102, code: 'K2', city: 'Кешград', community: null, name: 'Из набора' }], tariffs: [], services: [] });
    expect((await get(query)).json.rows).toEqual([{ id: 9999102, name: 'Из набора', enabled: 1 }]);
    await reference().replaceDataset('cache-dataset', { points: [], tariffs: [], services: [] });
    expect((await get(query)).json.meta.total).toBe(0);
  });

  it('refuses bad input as before, and keeps nothing for it', async () => {
    const before = server.app.services.lists.pointPageCache();
    const res = await server.call('GET', `/v1/lists/points?fields=id,colour`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('040012');
    expect(server.app.services.lists.pointPageCache().pages).toBe(before.pages);
  });

  it('keeps its pages within the bound it was given', async () => {
    let asked = 0;
    for (let offset = 0; offset < 5000; offset += 1000) {
      const page = await get(`?limit=1000&offset=${offset}`);
      expect(page.json.rows).toHaveLength(1000);
      asked += Buffer.byteLength(page.text);
      expect(server.app.services.lists.pointPageCache().bytes).toBeLessThanOrEqual(bound);
    }
    expect(asked).toBeGreaterThan(bound);
    const { pages, bytes, maxBytes } = server.app.services.lists.pointPageCache();
    expect(maxBytes).toBe(bound);
    expect(bytes).toBeGreaterThan(bound / 4);
    expect(pages).toBeLessThan(5);
  });
});

describe('GET /v1/lists/tariffs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists the tariffs of the sandbox services with every field of the conventions', async () => {
    const res = await server.call('GET', '/v1/lists/tariffs');
    expect(res.status).toBe(200);
    expect(res.json.meta).toEqual({ total: 8, offset: 0, limit: 100 });
    for (const t of res.json.rows) expect(tariffSchema.strict().parse(t)).toEqual(t);
    expect(res.json.rows[0]).toEqual({
      id: 101, providerKey: 'sandbox-express', name: 'Экспресс склад-склад', description: expect.any(String), aliasName: 'SBE-WW-101',
      weightMin: 1, weightMax: 30000, pickupType: 2, deliveryType: 2, paymentCash: 1,
    });
  });

  it('filters by delivery service, pages and projects, with and without /v1', async () => {
    const res = await server.call('GET', `/lists/tariffs${q({ filter: 'providerKey=sandbox-lockers', fields: 'id,name', limit: 1, offset: 1 })}`);
    expect(res.json).toEqual({ rows: [{ id: 302, name: 'Постамат со склада' }], meta: { total: 2, offset: 1, limit: 1 } });
    const post = await server.call('GET', `/v1/lists/tariffs${q({ filter: 'deliveryType=1;paymentCash=0' })}`);
    expect(post.json.rows.map((t: { id: number }) => t.id)).toEqual([103, 202]);
  });

  it('answers in XML and refuses bad filters and fields like the points list', async () => {
    const res = await server.call('GET', `/v1/lists/tariffs${q({ filter: 'providerKey=sandbox-post' })}`, { headers: xml });
    expect(XMLValidator.validate(res.text)).toBe(true);
    expect(parseXml(res.text).rows.item.map((t: { id: string }) => t.id)).toEqual(['201', '202']);
    expect((await server.call('GET', `/v1/lists/tariffs${q({ filter: 'weight=1' })}`)).json.code).toBe('040011');
    expect((await server.call('GET', `/v1/lists/tariffs${q({ filter: 'weightMax>' })}`)).json.code).toBe('040010');
    expect((await server.call('GET', `/v1/lists/tariffs${q({ fields: 'price' })}`)).json.code).toBe('040012');
    expect((await server.call('GET', `/v1/lists/tariffs${q({ limit: 5000 })}`)).json.code).toBe('040002');
  });
});
