import { startBrowserMode } from '../../electron/browser-mode';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { createKeyFileSecretBox } from '../../electron/core/providers/connections/secret-box';
import { createMigratedTestDatabase, onPostgres, testPostgresUrl } from '../../electron/core/store/test-engines';
import type { Result } from '../../shared/result';
import { FAKE_TEST_ACCOUNT, generateOffices, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { startSlowFront, type SlowFront } from '../fakes/slow-front';
import { createTestApp, tempDataDir } from '../helpers/test-app';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

const HOUR = 3_600_000;
const UP_TOKEN = 'upstream-company-token-0001';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

/**
 * The periodic work of the delivery services' lists, started by two ShipDesk apps (two instances, as two PCs of a
 * shop would run them, each with its own connections to the database) on one PostgreSQL database: CDEK's points
 * refresh and the upstream aggregator's hourly check each run in one instance per interval, the other finding the
 * lists fresh. Both services answer through a front that takes 300 ms a call, so both instances' checks overlap: without
 * the instances store's lock (tryRunExclusive) both would find the lists stale and fetch them.
 */
describe.skipIf(!testPostgresUrl)(onPostgres('periodic work on one PostgreSQL database: once per interval across instances'), () => {
  let database: { url: string; drop(): Promise<void> };
  let keys: ReturnType<typeof tempDataDir>;
  let upDir: ReturnType<typeof tempDataDir>;
  let upstream: Awaited<ReturnType<typeof startBrowserMode>>;
  let cdek: FakeCdek;
  let fronts: SlowFront[];
  const apps: TestApp[] = [];
  /** The upstream calls each app made ("GET /v1/lists/services"…). */
  const upstreamCalls: string[][] = [[], []];

  beforeEach(async () => {
    database = await createMigratedTestDatabase(testPostgresUrl!);
    keys = tempDataDir(); // one key for the connections' secrets, as the shop's PCs share their credentials
    upDir = tempDataDir();
    upstream = await startBrowserMode({ port: 0, dataDir: upDir.dir, tokens: [UP_TOKEN] }, { clock: manualClock(), log: silentLogger, startWorkers: false });
    cdek = await startFakeCdek({ offices: generateOffices(40) });
    fronts = await Promise.all([new URL(cdek.url).origin, upstream.base].map((target) => startSlowFront({ target, latencyMs: 300 })));
    const secretBox = createKeyFileSecretBox(keys.dir);
    for (let i = 0; i < 2; i++) {
      const onCall = (c: { method: string; path: string }) => upstreamCalls[i].push(`${c.method} ${c.path}`);
      apps.push(await createTestApp({ database: database.url, secretBox, upstream: { timeoutMs: 10_000, onCall } }));
    }
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const calls of upstreamCalls) calls.length = 0;
    for (const front of fronts) await front.close();
    await cdek.close();
    await upstream.close();
    upDir.remove();
    keys.remove();
    await database.drop();
  });

  it('CDEK’s points refresh and the upstream’s hourly check each run in one instance per interval', async () => {
    const [a, b] = apps;
    const [cdekFront, upFront] = fronts;
    value(await a.app.dispatch('connections.create', a.shop, { providerKey: 'cdek', name: 'Склад', baseUrl: `${cdekFront.origin}/v2`, credentials: FAKE_TEST_ACCOUNT }));
    value(await a.app.dispatch('connections.create', a.shop, { providerKey: 'upstream', name: 'Склад-2', baseUrl: `${upFront.origin}/v1/`, credentials: { token: UP_TOKEN } }));
    // The other instance hears of both connections and uses them too (the same secrets, readable there).
    await vi.waitFor(
      () => {
        const services = b.app.providers.list().map((p) => p.key);
        expect(services).toContain('cdek');
        expect(services.some((key) => key.startsWith('upstream:'))).toBe(true);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect((await b.app.dispatch('connections.list', b.shop, {})) as Result<{ credentialsReadable: boolean }[]>).toMatchObject({ ok: true, value: [{ credentialsReadable: true }, { credentialsReadable: true }] });

    const cdekPoints = () => cdek.stats.byRoute['GET /v2/deliverypoints'] ?? 0;
    /**
     * An interval's checks, both instances' timers firing together (each checks at start), and what each instance
     * asked the upstream for then: its service list (one call a sync) and its points (one call a page).
     */
    async function interval() {
      for (const calls of upstreamCalls) calls.length = 0;
      for (const app of [a, b]) app.app.services.connections.start(HOUR);
      await Promise.all([a, b].map((app) => app.app.services.connections.stop())); // each check finished
      const asked = (list: string) => upstreamCalls.map((calls) => calls.filter((c) => new RegExp(`^GET .*/lists/${list}$`).test(c)).length);
      return { services: asked('services'), points: asked('points') };
    }

    // Nothing fetched yet: everything, by one of them.
    let asked = await interval();
    expect(cdekPoints()).toBe(1);
    expect(asked.services.reduce((x, y) => x + y)).toBe(1);
    expect(asked.points.filter((pages) => pages > 0)).toHaveLength(1);

    // An hour on: the upstream's service list, once; the points are fresh for a day.
    for (const app of [a, b]) app.clock.advance(HOUR);
    asked = await interval();
    expect(cdekPoints()).toBe(1);
    expect(asked.services.reduce((x, y) => x + y)).toBe(1);
    expect(asked.points).toEqual([0, 0]);

    // A day on: everything again, by one of them.
    for (const app of [a, b]) app.clock.advance(23 * HOUR);
    asked = await interval();
    expect(cdekPoints()).toBe(2);
    expect(asked.services.reduce((x, y) => x + y)).toBe(1);
    expect(asked.points.filter((pages) => pages > 0)).toHaveLength(1);
  });
});
