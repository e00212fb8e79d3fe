import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSandboxData, tariffRecords } from '../../../scripts/generate-sandbox-data';
import { pointSchema, providerServiceSchema, tariffSchema, type Point } from '../../../shared/schemas/lists';
import { sandboxServices } from '../providers/sandbox/catalog';
import { openDatabase, type OpenedDatabase } from '../store/database';
import { createSqliteReferenceStore } from '../store/reference/sqlite';
import { expandPoints, pointsFileSchema } from './reference-format';
import { defaultResourcesDir, loadReferenceData, ReferenceDataError } from './reference-data';

const sandboxDir = join(defaultResourcesDir, 'sandbox');
const shipped = () => expandPoints(pointsFileSchema.parse(JSON.parse(readFileSync(join(sandboxDir, 'points.json'), 'utf8'))));
const referenceOf = (store: OpenedDatabase) => createSqliteReferenceStore(store);
const count = (store: OpenedDatabase, table: string, where = '1 = 1') =>
  (store.sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;

describe('the shipped sandbox reference data', () => {
  let points: Point[];
  beforeAll(() => {
    points = shipped();
  });

  it('is exactly what the seeded generator writes (run scripts/generate-sandbox-data.ts after changing it)', () => {
    const files = generateSandboxData();
    for (const [name, text] of Object.entries(files)) expect(readFileSync(join(sandboxDir, name), 'utf8'), name).toBe(text);
  });

  it('has thousands of points, every one a complete wire record with a unique id', () => {
    expect(points.length).toBeGreaterThanOrEqual(5000);
    for (const p of points) pointSchema.parse(p);
    expect(new Set(points.map((p) => p.id)).size).toBe(points.length);
  });

  it('puts points of every service in the big cities, near their centres, with real regions and postal indexes', () => {
    const centres: Record<string, [string, number, number, RegExp]> = {
      Москва: ['Москва', 55.7558, 37.6177, /^1\d{5}$/],
      'Санкт-Петербург': ['Санкт-Петербург', 59.9387, 30.3145, /^19\d{4}$/],
      Новосибирск: ['Новосибирская область', 55.0302, 82.9204, /^630\d{3}$/],
      Казань: ['Республика Татарстан', 55.7961, 49.1064, /^420\d{3}$/],
      'Ростов-на-Дону': ['Ростовская область', 47.2221, 39.7203, /^344\d{3}$/],
    };
    for (const [city, [region, lat, lng, index]] of Object.entries(centres)) {
      for (const key of ['sandbox-express', 'sandbox-post', 'sandbox-lockers']) {
        const here = points.filter((p) => p.city === city && p.providerKey === key);
        expect(here.length, `${key} in ${city}`).toBeGreaterThan(10);
        for (const p of here) {
          expect(p.region).toBe(region);
          expect(p.postIndex).toMatch(index);
          expect(Math.abs(p.lat! - lat) < 0.5 && Math.abs(p.lng! - lng) < 0.7, `${p.id} at ${p.lat},${p.lng}`).toBe(true);
          expect(p.address).toContain(p.postIndex!);
          expect(p.address).toContain(`г. ${city}`);
        }
      }
    }
  });

  it('gives each service its own kind of points', () => {
    const of = (key: string) => points.filter((p) => p.providerKey === key);
    const share = (list: Point[], test: (p: Point) => boolean) => list.filter(test).length / list.length;
    const lockers = of('sandbox-lockers');
    expect(share(lockers, (p) => p.type === 2)).toBeGreaterThan(0.75);
    expect(lockers.every((p) => p.cod === 0 && p.limits.maxCod === null)).toBe(true);
    for (const p of lockers.filter((x) => x.type === 2)) {
      const { maxSizeA: a, maxSizeB: b, maxSizeC: c } = p.limits;
      expect(a! >= b! && b! >= c! && c! > 0, `locker ${p.id}`).toBe(true);
    }
    const post = of('sandbox-post');
    expect(post.every((p) => p.type === 3 && p.cod === 1 && p.code === p.postIndex)).toBe(true);
    const express = of('sandbox-express');
    expect(express.every((p) => p.type === 1 || p.type === 4)).toBe(true);
    expect(share(express.filter((p) => p.type === 1), (p) => p.fittingRoom === 1)).toBeGreaterThan(0.8);
    expect(express.filter((p) => p.type !== 2).every((p) => p.limits.maxSizeA === null)).toBe(true);
    // Every city where a service works has a point that takes orders in (pickupType 2 needs one).
    for (const key of ['sandbox-express', 'sandbox-post']) {
      for (const city of new Set(of(key).map((p) => p.city))) {
        expect(of(key).some((p) => p.city === city && p.availableOperation !== 2), `${key} acceptance in ${city}`).toBe(true);
      }
    }
  });

  it('writes opening hours as worktime by ISO weekday with the timetable to match', () => {
    const samples = points.filter((p) => Object.keys(p.worktime).length < 7).slice(0, 50);
    expect(samples.length).toBeGreaterThan(0);
    for (const p of samples) expect(p.timetable).toContain('выходной');
    const roundTheClock = points.find((p) => p.timetable === 'Круглосуточно')!;
    expect(roundTheClock.worktime).toEqual(Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [String(d), '00:00/24:00'])));
  });

  it('has the tariffs of the sandbox catalog and additional services for every service, cargoType for one', () => {
    const tariffs = JSON.parse(readFileSync(join(sandboxDir, 'tariffs.json'), 'utf8'));
    expect(tariffs).toEqual(tariffRecords());
    for (const t of tariffs) tariffSchema.parse(t);
    expect(tariffs.map((t: { id: number }) => t.id)).toEqual(sandboxServices.flatMap((s) => s.tariffs.map((t) => t.id)));
    const services = JSON.parse(readFileSync(join(sandboxDir, 'services.json'), 'utf8')).map((s: unknown) => providerServiceSchema.parse(s));
    for (const s of sandboxServices) expect(services.some((x: { providerKey: string }) => x.providerKey === s.info.key)).toBe(true);
    expect(services.filter((s: { extraParamName: string }) => s.extraParamName === 'cargoType')).toHaveLength(1);
    expect(new Set(services.map((s: { valueType: string }) => s.valueType))).toEqual(new Set(['bool', 'string', 'int', 'float']));
  });
});

describe('loading reference data at start', () => {
  let dir: string;
  let resources: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-reference-'));
    resources = join(dir, 'resources');
    cpSync(defaultResourcesDir, resources, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = () => openDatabase({ file: join(dir, 'shipdesk.db') });

  it('fills a new database, and the next start reads nothing but the manifest', async () => {
    const store = open();
    const first = (await loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 1000 }))!;
    expect(first).toMatchObject({ loaded: true, points: shipped().length, tariffs: 8, services: expect.any(Number) });
    expect(count(store, 'points')).toBe(first.points);
    // Unreadable data files would fail a load: the second start does not touch them.
    writeFileSync(join(resources, 'sandbox', 'points.json'), 'not json');
    const again = (await loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 2000 }))!;
    expect(again.loaded).toBe(false);
    expect(store.sqlite.prepare('SELECT loaded_at FROM reference_data').get()).toEqual({ loaded_at: 1000 });
    await store.close();
  });

  it('replaces its own rows when the version changes, leaving other sources alone', async () => {
    const store = open();
    await loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 1 });
    store.sqlite
      .prepare(
        `INSERT INTO points (id, source, provider_key, code, name, country_code, city, address, available_operation, type, city_fold, search_text)
         VALUES (9000001, 'other', 'cdek', 'MSK1', 'Офис', 'RU', 'Москва', 'Москва', 3, 1, 'москва', '')`,
      )
      .run();
    const manifestFile = join(resources, 'sandbox', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: 'next' }));
    const points = JSON.parse(readFileSync(join(resources, 'sandbox', 'points.json'), 'utf8'));
    points.rows = points.rows.slice(0, 10);
    writeFileSync(join(resources, 'sandbox', 'points.json'), JSON.stringify(points));

    expect(await loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 2 })).toMatchObject({ loaded: true, points: 10, version: expect.stringMatching(/^next\//) });
    expect(count(store, 'points', "source = 'sandbox'")).toBe(10);
    expect(count(store, 'points', "source = 'other'")).toBe(1);
    expect(count(store, 'tariffs')).toBe(8);
    await store.close();
  });

  it('a broken file changes nothing and says which file and row', async () => {
    const store = open();
    await loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 1 });
    const before = count(store, 'points');
    const manifestFile = join(resources, 'sandbox', 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), version: 'broken' }));
    const pointsFile = join(resources, 'sandbox', 'points.json');
    const points = JSON.parse(readFileSync(pointsFile, 'utf8'));
    points.rows[3][19] = 7; // type 7 does not exist
    writeFileSync(pointsFile, JSON.stringify(points));
    await expect(loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 2 })).rejects.toThrow(ReferenceDataError);
    await expect(loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 2 })).rejects.toThrow(/points\.json: rows\.3\.19: bad type/);
    points.rows[3][19] = 1;
    points.rows[4][0] = points.rows[5][0];
    writeFileSync(pointsFile, JSON.stringify(points));
    await expect(loadReferenceData(referenceOf(store), { resourcesDir: resources, now: 2 })).rejects.toThrow(/duplicate id/);
    expect(count(store, 'points')).toBe(before);
    expect(store.sqlite.prepare('SELECT version FROM reference_data').get()).not.toMatchObject({ version: expect.stringMatching(/^broken/) });
    await store.close();
  });

  it('without shipped data it reports nothing to load', async () => {
    const store = open();
    expect(await loadReferenceData(referenceOf(store), { resourcesDir: join(dir, 'nowhere'), now: 1 })).toBeNull();
    expect(count(store, 'points')).toBe(0);
    await store.close();
  });

  it('two apps starting on one folder load it once', async () => {
    const a = open();
    const b = open();
    expect((await loadReferenceData(referenceOf(a), { resourcesDir: resources, now: 1 }))!.loaded).toBe(true);
    expect((await loadReferenceData(referenceOf(b), { resourcesDir: resources, now: 2 }))!.loaded).toBe(false);
    expect(count(a, 'points')).toBe(shipped().length);
    await b.close();
    await a.close();
  });
});
