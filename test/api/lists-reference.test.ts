import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Carrier } from '../../electron/core/providers/provider';
import { providerServiceSchema, statusRecordSchema, typeRecordSchema, type Point } from '../../shared/schemas/lists';
import { statusKeys } from '../../shared/status-keys';
import { startTestServer, type TestServer } from '../helpers/test-server';

const q = (params: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const xml = { Accept: 'application/xml' };
const parseXml = (text: string) => new XMLParser({ parseTagValue: false, isArray: (name) => name === 'item' }).parse(text).response;

/** A connected delivery service beside the sandbox ones, as an adapter would register it. */
const connected: Carrier = {
  info: {
    key: 'courier-connected',
    name: 'Подключённая служба',
    description: 'Служба, подключённая магазином',
    test: false,
    capabilities: { cancel: true, update: false, intervals: 'none', deliveryTypes: [1], pickupTypes: [1], cod: false },
  },
  check: async () => [],
  register: async () => ({ providerNumber: 'X1' }),
  find: async () => null,
  track: async () => new Map(),
};

describe('reference lists of the interface', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ providers: () => [connected] });
  });
  afterAll(() => server.close());

  const get = async (path: string) => {
    const res = await server.call('GET', path);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };

  describe('/lists/providers', () => {
    it('lists every registered delivery service with its capabilities, paged', async () => {
      const page = await get('/v1/lists/providers');
      expect(page.meta).toEqual({ total: 4, offset: 0, limit: 100 });
      expect(page.rows.map((p: { key: string }) => p.key)).toEqual(['sandbox-express', 'sandbox-post', 'sandbox-lockers', 'courier-connected']);
      expect(page.rows[0]).toEqual({
        key: 'sandbox-express', name: expect.any(String), description: expect.any(String), test: true,
        capabilities: {
          cancel: true, update: true, intervals: 'dynamic', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true,
          operations: ['create', 'find', 'update', 'cancel', 'track', 'labels', 'handoverActs', 'courierCalls', 'rates', 'intervals'],
          // Built-in services print too: ShipDesk draws their labels and acts.
          labels: true, handoverActs: true, courierCalls: true,
          // No sandbox service forms batches: its orders get their number when registered.
          batches: false,
        },
      });
      // What each one can do, as its carrier declares it: the post deletes instead of canceling and takes no courier calls, the lockers have no intervals.
      expect(page.rows[1].capabilities).toMatchObject({ operations: ['create', 'find', 'remove', 'track', 'labels', 'handoverActs', 'rates', 'intervals'], labels: true, courierCalls: false });
      expect(page.rows[2].capabilities.operations).toEqual(['create', 'find', 'cancel', 'track', 'labels', 'handoverActs', 'courierCalls', 'rates']);
      expect(page.rows[3]).toMatchObject({ key: 'courier-connected', test: false, capabilities: { cod: false } });
    });

    it('filters, projects and pages like the other lists', async () => {
      expect(await get(`/lists/providers${q({ filter: 'test=0', fields: 'key,name' })}`)).toEqual({
        rows: [{ key: 'courier-connected', name: 'Подключённая служба' }],
        meta: { total: 1, offset: 0, limit: 100 },
      });
      expect((await get(`/lists/providers${q({ filter: 'name%постамат', fields: 'key' })}`)).rows).toEqual([{ key: 'sandbox-lockers' }]);
      expect(await get(`/lists/providers${q({ limit: 1, offset: 2, fields: 'key' })}`)).toEqual({ rows: [{ key: 'sandbox-lockers' }], meta: { total: 4, offset: 2, limit: 1 } });
      expect((await server.call('GET', `/lists/providers${q({ filter: 'capabilities=1' })}`)).json.code).toBe('040011');
    });

    it('answers in XML with the capability lists as items', async () => {
      const res = await server.call('GET', `/v1/lists/providers${q({ limit: 1 })}`, { headers: xml });
      expect(XMLValidator.validate(res.text)).toBe(true);
      const provider = parseXml(res.text).rows.item[0];
      expect(provider).toMatchObject({ key: 'sandbox-express', test: '1', capabilities: { deliveryTypes: { item: ['1', '2'] }, cancel: '1' } });
    });
  });

  describe('/lists/statuses', () => {
    it('lists every status key with its name and description, final ones marked', async () => {
      const page = await get('/v1/lists/statuses');
      expect(page.meta).toEqual({ total: statusKeys.length, offset: 0, limit: 100 });
      expect(page.rows.map((s: { key: string }) => s.key)).toEqual([...statusKeys]);
      for (const s of page.rows) expect(statusRecordSchema.strict().parse(s)).toEqual(s);
      expect(page.rows.find((s: { key: string }) => s.key === 'uploaded')).toEqual({
        key: 'uploaded', name: 'Загружен в систему службы доставки', description: expect.stringContaining('загружена'), final: false,
      });
      const final = await get(`/lists/statuses${q({ filter: 'final=1', fields: 'key' })}`);
      expect(final.rows.map((s: { key: string }) => s.key)).toEqual(['delivered', 'deliveryCanceled', 'partialReturn', 'returned', 'lost']);
    });

    it('refuses bad paging and filters', async () => {
      expect((await server.call('GET', `/lists/statuses${q({ limit: 0 })}`)).json.code).toBe('040002');
      expect((await server.call('GET', `/lists/statuses${q({ filter: 'key=' })}`)).json.code).toBe('040010');
      expect((await server.call('GET', `/lists/statuses${q({ fields: 'color' })}`)).json.code).toBe('040012');
    });
  });

  describe('/lists/services', () => {
    it('is a bare array of the additional services of each delivery service', async () => {
      const services = await get('/v1/lists/services');
      expect(Array.isArray(services)).toBe(true);
      for (const s of services) expect(providerServiceSchema.strict().parse(s)).toEqual(s);
      expect(new Set(services.map((s: { providerKey: string }) => s.providerKey))).toEqual(new Set(['sandbox-express', 'sandbox-post', 'sandbox-lockers']));
      expect(services.find((s: { extraParamName: string }) => s.extraParamName === 'cargoType')).toMatchObject({ providerKey: 'sandbox-express', valueType: 'string' });
    });

    it('filters by delivery service and projects, with and without /v1', async () => {
      const lockers = await get(`/lists/services${q({ filter: 'providerKey=sandbox-lockers', fields: 'extraParamName,valueType' })}`);
      expect(lockers).toEqual([
        { extraParamName: 'smsNotice', valueType: 'bool' },
        { extraParamName: 'storageDays', valueType: 'int' },
        { extraParamName: 'cellSize', valueType: 'string' },
      ]);
      expect(await get(`/v1/lists/services${q({ filter: 'providerKey=sandbox-lockers', fields: 'extraParamName,valueType' })}`)).toEqual(lockers);
    });

    it('answers in XML as items under response', async () => {
      const res = await server.call('GET', `/lists/services${q({ filter: 'valueType=float' })}`, { headers: xml });
      expect(XMLValidator.validate(res.text)).toBe(true);
      expect(parseXml(res.text).item).toEqual([expect.objectContaining({ providerKey: 'sandbox-post', extraParamName: 'declaredValue', valueType: 'float' })]);
    });
  });

  describe('the numbered lists', () => {
    it.each([
      ['/v1/lists/pickupTypes', [1, 2]],
      ['/v1/lists/deliveryTypes', [1, 2]],
      ['/v1/lists/paymentMethods', [1, 2, 3, 4]],
      ['/v1/lists/pointTypes', [1, 2, 3, 4]],
    ])('%s is a bare array of { id, name, description }', async (path, ids) => {
      const list = await get(path);
      expect(list.map((r: { id: number }) => r.id)).toEqual(ids);
      for (const r of list) expect(typeRecordSchema.strict().parse(r)).toEqual(r);
      expect(await get(path.replace('/v1', ''))).toEqual(list);
      const inXml = await server.call('GET', path, { headers: xml });
      expect(XMLValidator.validate(inXml.text)).toBe(true);
      expect(parseXml(inXml.text).item.map((r: { id: string }) => r.id)).toEqual(ids.map(String));
    });

    it('take filter and fields too', async () => {
      expect(await get(`/lists/deliveryTypes${q({ filter: 'id=2', fields: 'name' })}`)).toEqual([{ name: 'До пункта выдачи' }]);
      expect((await server.call('GET', `/lists/pickupTypes${q({ filter: 'id=x' })}`)).json.code).toBe('040010');
    });
  });
});

describe('commands of the order screen', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const command = async (name: string, body: unknown) => {
    const res = await server.command(name, body);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };

  it('lists.points finds pickup points for the picker: service, city, fitting room, what the parcel needs', async () => {
    const result = await command('lists.points', {
      providerKey: 'sandbox-express', city: 'казань', fittingRoom: true, operation: 'issue', parcel: { weight: 20_000, codCost: 120_000 }, limit: 20,
    });
    expect(result.ok).toBe(true);
    const { rows, total } = result.value as { rows: Point[]; total: number };
    expect(total).toBeGreaterThan(0);
    for (const p of rows) {
      expect(p).toMatchObject({ providerKey: 'sandbox-express', city: 'Казань', fittingRoom: 1, enabled: 1, cod: 1 });
      expect(p.availableOperation).not.toBe(1);
      expect(p.limits.maxWeight).toBeGreaterThanOrEqual(20_000);
      expect(p.limits.maxCod).toBeGreaterThanOrEqual(120_000);
    }
    const lockers = await command('lists.points', { providerKey: 'sandbox-lockers', city: 'Казань', types: [2], parcel: { length: 62, width: 30, height: 40 } });
    expect(lockers.value.total).toBeGreaterThan(0);
    for (const p of lockers.value.rows as Point[]) expect(p.limits).toMatchObject({ maxSizeA: 64, maxSizeB: 41, maxSizeC: 38 });
    expect((await command('lists.points', { providerKey: 'sandbox-lockers', parcel: { codCost: 100 } })).value).toEqual({ rows: [], total: 0 });
  });

  it('lists.points refuses bad input with 040002 and says which field', async () => {
    const res = await server.command('lists.points', { limit: 0, types: [9] });
    expect(res.json).toMatchObject({ ok: false, error: { code: '040002' } });
    expect(res.json.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'types.0']);
  });

  it('lists.point gives one point of a service, or null', async () => {
    const point = (await command('lists.points', { providerKey: 'sandbox-post', limit: 1 })).value.rows[0] as Point;
    expect((await command('lists.point', { providerKey: 'sandbox-post', id: point.id })).value).toEqual(point);
    expect((await command('lists.point', { providerKey: 'sandbox-express', id: point.id })).value).toBeNull();
  });

  it('lists.cities offers cities as the user types', async () => {
    const cities = await command('lists.cities', { search: 'ново', providerKey: 'sandbox-lockers' });
    expect(cities.value).toEqual([{ city: 'Новосибирск', region: 'Новосибирская область', points: expect.any(Number) }]);
  });

  it('lists.tariffs and lists.services give what the order form offers', async () => {
    const tariffs = await command('lists.tariffs', { providerKey: 'sandbox-express', deliveryType: 2, weight: 40_000 });
    expect(tariffs.value).toEqual([]);
    const light = await command('lists.tariffs', { providerKey: 'sandbox-express', deliveryType: 2, weight: 1_000 });
    expect(light.value.map((t: { id: number }) => t.id)).toEqual([101, 104]);
    const services = await command('lists.services', { providerKey: 'sandbox-post' });
    expect(services.value.map((s: { extraParamName: string }) => s.extraParamName)).toEqual(['declaredValue', 'inventory', 'deliveryNotice', 'fragile', 'smsNotice']);
    expect((await command('lists.services', {})).value.length).toBeGreaterThan(services.value.length);
  });
});
