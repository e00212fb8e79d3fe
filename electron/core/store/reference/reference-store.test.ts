import fc from 'fast-check';
import type { Point } from '../../../../shared/schemas/lists';
import { compileFilter, filterPredicate, formatFilter, type FilterCondition, type FilterScalar } from '../../lists/filter';
import { pointFilterFields } from '../../lists/list-fields';
import { pointRefusals } from '../../lists/point-checks';
import { defaultResourcesDir, loadReferenceData } from '../../lists/reference-data';
import { testEngines, type TestStores } from '../test-engines';
import type { ReferenceStore } from './reference-store';

describe.each(testEngines)('the points of the reference store ($name)', ({ name, open }) => {
  let opened: TestStores;
  let store: ReferenceStore;
  let all: Point[];

  beforeAll(async () => {
    opened = await open();
    store = opened.stores.reference;
    await loadReferenceData(store, { resourcesDir: defaultResourcesDir, now: 0 });
    all = await store.pointPage([], { limit: 100_000, offset: 0 });
  }, 60_000); // the shipped points loaded into a new database (on PostgreSQL, a new database migrated first)
  afterAll(() => opened.close());

  /** What the same filter selects from the records in memory (the reference semantics). */
  function inMemory(filter: string): number[] {
    const match = filterPredicate(compileFilter(filter, pointFilterFields), (p: Point, field) => {
      if (field === 'city') return [p.city, p.community];
      if (field.startsWith('limits.')) return p.limits[field.slice(7) as keyof Point['limits']];
      return (p as unknown as Record<string, unknown>)[field];
    });
    return all.filter(match).map((p) => p.id);
  }

  async function inSql(filter: string): Promise<number[]> {
    const rows = await store.pointPage(compileFilter(filter, pointFilterFields), { limit: 100_000, offset: 0 });
    return rows.map((r) => r.id);
  }

  /** One page and the total of the whole match, as /lists/points asks. */
  const listPoints = async (filter: ReturnType<typeof compileFilter>, page: { limit: number; offset: number }) => ({
    rows: await store.pointPage(filter, page),
    total: await store.countPoints(filter),
  });

  it('a city filter finds the points of the city and of the settlements within it, in any letter case', async () => {
    const moscow = await inSql('city=москва;providerKey=SANDBOX-EXPRESS');
    expect(moscow.length).toBeGreaterThan(300);
    const zelenograd = await inSql('city=Зеленоград');
    expect(zelenograd.length).toBeGreaterThan(0);
    for (const id of zelenograd) expect(all.find((p) => p.id === id)).toMatchObject({ city: 'Москва', community: 'Зеленоград' });
    expect(await inSql('city=Королев')).toEqual(await inSql('city=Королёв'));
  });

  it('pages by id without gaps or repeats, with the total of the whole match', async () => {
    const filter = compileFilter('city=Санкт-Петербург;type=[1,2]', pointFilterFields);
    const first = await listPoints(filter, { limit: 50, offset: 0 });
    const seen: number[] = [];
    for (let offset = 0; offset < first.total; offset += 50) seen.push(...(await listPoints(filter, { limit: 50, offset })).rows.map((p) => p.id));
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(first.total);
  });

  it('a page of a city filter holds the points the in-memory filter gives at that place, settlements within the city included', async () => {
    const filters = ['city=Санкт-Петербург;providerKey=sandbox-lockers', 'city=Москва;providerKey=sandbox-post;type=[1,2]', 'city=[Казань,Омск]', 'city=Адлер', 'city=Москва'];
    for (const text of filters) {
      const expected = inMemory(text);
      const filter = compileFilter(text, pointFilterFields);
      for (const [offset, limit] of [[0, 100], [0, 7], [37, 25], [Math.max(0, expected.length - 3), 10]]) {
        const page = await listPoints(filter, { limit, offset });
        expect(page.rows.map((p) => p.id), `${text} @${offset}+${limit}`).toEqual(expected.slice(offset, offset + limit));
        expect(page.total).toBe(expected.length);
      }
    }
  });

  it('SQL and the in-memory filter agree on every kind of condition', async () => {
    const samples = [
      'city=Казань;providerKey=sandbox-lockers', 'availableOperation=[2,3];type=2;city=Тула', 'name%экспресс на ул. ленина', 'limits.maxCod>150000',
      'limits.maxSizeA<60', 'paymentCard=0;city=Омск', 'postIndex=[630090,124460]', 'region=Московская область;enabled=0', 'code>MSK9', 'code%l00',
      'community=Адлер', 'street%Пр-т', 'lat>59.9;lng<30.3', 'fittingRoom=true;cod=1;city=Пермь', 'phone%800',
    ];
    for (const filter of samples) expect(await inSql(filter), filter).toEqual(inMemory(filter));
  });

  it('SQL and the in-memory filter agree on generated filters', async () => {
    const values: Record<string, FilterScalar[]> = {};
    const text = (v: unknown): FilterScalar => (typeof v === 'number' ? { kind: 'number', text: String(v) } : { kind: 'string', text: String(v) });
    for (const field of Object.keys(pointFilterFields)) {
      const read = (p: Point) => (field.startsWith('limits.') ? p.limits[field.slice(7) as keyof Point['limits']] : (p as unknown as Record<string, unknown>)[field]);
      values[field] = [...new Set(all.slice(0, 400).map(read).filter((v) => v !== null && v !== undefined))].slice(0, 30).map(text);
    }
    const fields = Object.keys(values).filter((f) => values[f].length > 0);
    const condition = fc.constantFrom(...fields).chain((field) => {
      const numeric = ['int', 'real', 'flag'].includes(pointFilterFields[field].type);
      const value = fc.constantFrom(...values[field]);
      const part = value.map((v) => (numeric || v.kind === 'number' ? v : { kind: 'string' as const, text: v.text.slice(1, 4).toUpperCase() }));
      return fc.oneof(
        fc.tuple(fc.constantFrom<FilterCondition['op']>('=', '>', '<'), value).map(([op, v]): FilterCondition => ({ field, op, values: [v], array: false })),
        fc.array(value, { minLength: 1, maxLength: 3 }).map((vs): FilterCondition => ({ field, op: '=', values: vs, array: true })),
        ...(numeric ? [] : [part.map((v): FilterCondition => ({ field, op: '%', values: [v], array: false }))]),
      );
    });
    await fc.assert(
      fc.asyncProperty(fc.array(condition, { minLength: 1, maxLength: 3 }), async (conditions) => {
        const filter = formatFilter(conditions);
        expect(await inSql(filter), filter).toEqual(inMemory(filter));
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it('findPoint gives a point of its own service only, with its limits', async () => {
    const locker = all.find((p) => p.providerKey === 'sandbox-lockers' && p.type === 2)!;
    expect(await store.findPoint('sandbox-lockers', locker.id)).toEqual(locker);
    expect(locker.limits.maxSizeA).toBeGreaterThan(0);
    expect(await store.findPoint('sandbox-express', locker.id)).toBeNull();
    expect(await store.findPoint('sandbox-lockers', 999_999_999)).toBeNull();
    expect(await store.findPoint('sandbox-lockers', Number.NaN)).toBeNull();
    expect(await store.hasPoints('sandbox-post')).toBe(true);
    expect(await store.hasPoints('cdek')).toBe(false);
  });

  it('findPoints and findTariffs give the records of any service by id, unknown ids left out (a label names its point and tariff)', async () => {
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    const some = [all[0], all[Math.floor(all.length / 2)], all.at(-1)!].sort(byId);
    expect(new Set(some.map((p) => p.providerKey)).size).toBeGreaterThan(1);
    expect((await store.findPoints([...some.map((p) => p.id), 999_999_999, Number.NaN])).sort(byId)).toEqual(some);
    expect(await store.findPoints([])).toEqual([]);
    const tariffs = await store.tariffs();
    const asked = [tariffs[0], tariffs.at(-1)!];
    const found = await store.findTariffs([...asked.map((t) => t.id), 999_999_999]);
    expect(found).toEqual(expect.arrayContaining(asked));
    expect(found.every((t) => asked.some((a) => a.id === t.id))).toBe(true);
  });

  it("the picker's parcel filter keeps exactly the points that take the parcel", async () => {
    const inKazan = all.filter((p) => p.city === 'Казань' && p.enabled);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          weight: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: undefined }),
          length: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
          width: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
          height: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
          codCost: fc.option(fc.constantFrom(0, 500, 100_000, 150_000.5, 300_000, 600_000), { nil: undefined }),
        }),
        fc.constantFrom<'issue' | 'acceptance' | undefined>('issue', 'acceptance', undefined),
        async (parcel, operation) => {
          const found = await store.searchPoints({ city: 'Казань', parcel, operation, limit: 500, offset: 0 });
          const role = operation === 'issue' ? 'out' : operation === 'acceptance' ? 'in' : undefined;
          const expected = inKazan.filter((p) => pointRefusals(p, parcel, role).length === 0).map((p) => p.id);
          expect(found.rows.map((p) => p.id)).toEqual(expected);
          expect(found.total).toBe(expected.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the picker searches words in name and address, without regard to case or ё, nearest first when asked', async () => {
    const point = all.find((p) => p.city === 'Новосибирск' && p.providerKey === 'sandbox-express' && p.type === 1 && p.enabled && p.street)!;
    const word = point.street!.split(' ').at(-1)!; // `ул. Кирова` → `Кирова`
    const found = await store.searchPoints({ search: `ЭКСПРЕСС ${word.toLowerCase()}`, city: 'новосибирск', limit: 500, offset: 0 });
    expect(found.rows.map((p) => p.id)).toContain(point.id);
    for (const p of found.rows) expect(`${p.name} ${p.address}`.toLowerCase()).toMatch(new RegExp(`экспресс[\\s\\S]*${word.toLowerCase()}`));
    const centre = { lat: 55.030204, lng: 82.92043 };
    const near = await store.searchPoints({ city: 'Новосибирск', near: centre, limit: 20, offset: 0 });
    const d = (p: Point) => (p.lat! - centre.lat) ** 2 + ((p.lng! - centre.lng) * Math.cos((centre.lat * Math.PI) / 180)) ** 2;
    expect(near.rows.map(d)).toEqual(near.rows.map(d).sort((a, b) => a - b));
    const disabled = await store.searchPoints({ includeDisabled: true, limit: 500, offset: 0, city: 'Москва' });
    expect(disabled.total).toBeGreaterThan((await store.searchPoints({ limit: 1, offset: 0, city: 'Москва' })).total);
  });

  it('lists cities by how many points they have, matching the start of the name', async () => {
    const top = await store.cities({ limit: 3 });
    expect(top.map((c) => c.city)).toEqual(['Москва', 'Санкт-Петербург', expect.any(String)]);
    const kra = await store.cities({ search: 'кра', limit: 10 });
    expect(kra.map((c) => `${c.city}, ${c.region}`).sort()).toEqual(['Краснодар, Краснодарский край', 'Красноярск, Красноярский край']);
    expect(kra[0].points).toBeGreaterThanOrEqual(kra[1].points);
    expect((await store.cities({ search: 'КОРОЛЕВ', limit: 10 })).map((c) => c.city)).toEqual(['Королёв']);
  });

  it('the points version changes with every points write of the store, and only then', async () => {
    const point = { ...all[0], id: 9_800_001, code: 'V1' };
    const versions = [await store.pointsVersion()];
    const changed = async () => {
      const now = await store.pointsVersion();
      expect(versions).not.toContain(now);
      versions.push(now);
    };
    await store.recordSync('version-test', 'points', { attemptedAt: 1, error: null });
    expect(await store.pointsVersion()).toBe(versions[0]);
    await store.putPoints('version-test', [point]);
    await changed();
    await store.closePointsExcept('version-test', new Set());
    await changed();
    await store.forgetSource('version-test');
    await changed();
    await store.replaceDataset('version-set', { points: [point], tariffs: [], services: [] });
    await changed();
    await store.loadDataset('version-set', 'v2', { points: [], tariffs: [], services: [] }, 1);
    await changed();
    expect(await store.findPoint(point.providerKey, point.id)).toBeNull();
  });

  it('findTariff answers from memory until tariffs are written here or elsewhere, as the store is told', async () => {
    const tariff = { ...(await store.tariffs()).at(0)!, id: 9_700_001, name: 'Первый' };
    await store.replaceTariffs('cache-test', [tariff]);
    const heard: string[] = [];
    const stop = store.onTariffsWritten(() => heard.push('written'));
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Первый' });
    expect(await store.findTariff(tariff.providerKey, 9_700_002)).toBeNull();
    // Another writer (another instance) changes the row: kept as read until the store is told.
    await opened.db.updateTable('tariffs').set({ name: 'Второй' }).where('id', '=', tariff.id).execute();
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Первый' });
    store.tariffsChanged();
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Второй' });
    // The store's own writes are seen at once, and heard.
    await store.replaceTariffs('cache-test', [{ ...tariff, name: 'Третий' }, { ...tariff, id: 9_700_002 }]);
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Третий' });
    expect(await store.findTariff(tariff.providerKey, 9_700_002)).toMatchObject({ id: 9_700_002 });
    await store.forgetSource('cache-test');
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toBeNull();
    stop();
    expect(heard).toEqual(['written', 'written']);
  });

  it('a points refresh keeps the tariffs read, and a dataset already in (each start) tells nobody of a write', async () => {
    const tariff = { ...(await store.tariffs()).at(0)!, id: 9_600_001, name: 'Кэш' };
    const point = { ...all[0], id: 9_600_001, code: 'K1' };
    await store.replaceTariffs('keep-test', [tariff]);
    const heard: string[] = [];
    const stops = [store.onTariffsWritten(() => heard.push('tariffs')), store.onPointsWritten(() => heard.push('points'))];
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Кэш' });
    await opened.db.updateTable('tariffs').set({ name: 'Изменён другим' }).where('id', '=', tariff.id).execute();
    // points written (a service's points refreshed): the tariffs read stay as read, only the points' readers hear
    await store.putPoints('keep-test', [point]);
    await store.closePointsExcept('keep-test', new Set());
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Кэш' });
    expect(heard).toEqual(['points', 'points']);
    // a dataset load writes both; the same version again writes nothing, and nothing is forgotten or heard
    const data = { points: [], tariffs: [{ ...tariff, id: 9_600_002 }], services: [] };
    expect(await store.loadDataset('keep-set', 'v1', data, 1)).toBe(true);
    expect(heard).toEqual(['points', 'points', 'points', 'tariffs']);
    const version = await store.pointsVersion();
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Изменён другим' }); // read again
    await opened.db.updateTable('tariffs').set({ name: 'Снова другим' }).where('id', '=', tariff.id).execute();
    expect(await store.loadDataset('keep-set', 'v1', data, 2)).toBe(false);
    expect(await store.findTariff(tariff.providerKey, tariff.id)).toMatchObject({ name: 'Изменён другим' });
    expect(heard).toEqual(['points', 'points', 'points', 'tariffs']);
    expect(await store.pointsVersion()).toBe(version);
    for (const stop of stops) stop();
    await store.forgetSource('keep-test');
    await store.forgetSource('keep-set');
  });

  it.runIf(name === 'postgres')("another instance's points write is seen once the store is told (or its trust of the last read runs out)", async () => {
    const before = await store.pointsVersion();
    await opened.db.updateTable('points').set({ name: 'Переименован другим' }).where('id', '=', all[1].id).execute();
    store.pointsChanged();
    expect(await store.pointsVersion()).not.toBe(before);
  });
});
