import { compileFilter } from './filter';
import { pointFilterFields } from './list-fields';
import { defaultResourcesDir, loadReferenceData } from './reference-data';
import { createListsService } from './lists-service';
import { createProviderRegistry } from '../providers/registry';
import type { ReferenceStore } from '../store/reference/reference-store';
import { testEngines, type TestStores } from '../store/test-engines';

describe('/lists/points pages and their totals', () => {
  let opened: TestStores;
  let reference: ReferenceStore;
  let versionReads = 0;

  beforeAll(async () => {
    opened = await testEngines[0].open(); // SQLite
    await loadReferenceData(opened.stores.reference, { resourcesDir: defaultResourcesDir, now: 0 });
    // the real store, counting how often the points version is asked
    reference = new Proxy(opened.stores.reference, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === 'pointsVersion') return () => ((versionReads += 1), target.pointsVersion());
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }, 60_000);
  afterAll(() => opened.close());

  const encode = (page: unknown) => ({ contentType: 'application/json', bytes: Buffer.from(JSON.stringify(page)) });
  const asJson = (page: { bytes: Buffer }) => JSON.parse(page.bytes.toString()) as { rows: { id: number }[]; meta: { total: number } };

  it('an uncached page reads the points version once, for the page cache and the total alike; a kept page reads it once too', async () => {
    const lists = createListsService({ reference, providers: createProviderRegistry([]) });
    const asked = { filter: 'city=Москва', limit: '5', offset: '0' };
    versionReads = 0;
    const first = asJson(await lists.encodedPoints(asked, 'json', encode));
    expect(versionReads).toBe(1);
    expect(first.rows).toHaveLength(5);
    expect(first.meta.total).toBe(await opened.stores.reference.countPoints(compileFilter('city=Москва', pointFilterFields)));
    versionReads = 0;
    expect(asJson(await lists.encodedPoints(asked, 'json', encode))).toEqual(first);
    expect(versionReads).toBe(1);
    versionReads = 0;
    await lists.points(asked);
    expect(versionReads).toBe(1);
  });

  it('a point added in the city is counted in the next page\'s total: the one version read starts a new generation of totals too', async () => {
    const lists = createListsService({ reference, providers: createProviderRegistry([]) });
    const asked = { filter: 'city=Москва', limit: '5', offset: '0' };
    const before = asJson(await lists.encodedPoints(asked, 'json', encode)).meta.total;
    const [moscow] = await opened.stores.reference.pointPage([], { limit: 1, offset: 0 });
    await opened.stores.reference.putPoints('lists-test', [{ ...moscow, id: 9_800_101, code: 'LT1', city: 'Москва', community: null }]);
    expect(asJson(await lists.encodedPoints(asked, 'json', encode)).meta.total).toBe(before + 1);
    expect((await lists.points({ ...asked, offset: '5' })).meta.total).toBe(before + 1);
  });
});
