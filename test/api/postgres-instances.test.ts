import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { createTestDatabase, testPostgresUrl, onPostgres } from '../../electron/core/store/test-engines';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import type { InstanceConfig } from '../helpers/instance-process';

const SEED = Number(process.env.FAULT_SEED ?? 20_261_128);
const LEASE_MS = 2_000;

/** An instance process (test/helpers/instance-process.ts): its holder id, its output, and its end. */
interface Instance {
  holder: string;
  child: ChildProcessWithoutNullStreams;
  output(): string;
  exited: Promise<number | null>;
}

async function startInstance(config: InstanceConfig): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/instance-process.ts', JSON.stringify(config)], { cwd: process.cwd(), env: { ...process.env } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const holder = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /ready (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`instance exited with ${code}:\n${output}`)));
  });
  return { holder, child, output: () => output, exited };
}

/**
 * Reads until `done` says yes, at most `limitMs` (then the last reading is what the assertions see). The limits are
 * generous: on a 2-core machine shared with other suites the first case has taken 102 s of its wait (load 10).
 */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, limitMs: number, everyMs = 50): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (process.env.SHIPDESK_TEST_PROGRESS) console.error(new Date().toISOString(), JSON.stringify(value));
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Stops an instance as Ctrl+C would and reads how many creates it sent CDEK. */
async function stopInstance(instance: Instance): Promise<number> {
  instance.child.kill('SIGTERM');
  expect(await instance.exited).toBe(0);
  return Number(/sent (\d+)/.exec(instance.output())?.[1]);
}

/**
 * Several ShipDesk instances on one PostgreSQL database share the outbox's queue: each job is leased by one of them
 * (FOR UPDATE SKIP LOCKED), and a job whose holder died is taken by another once its lease ends. Real processes, a real
 * PostgreSQL server, CDEK's fake over HTTP failing 30 % of its calls (5xx, no answer, lost replies), counted at the fake.
 */
describe.skipIf(!testPostgresUrl)(onPostgres('several instances on one PostgreSQL'), () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let fake: FakeCdek;
  let client: pg.Client;
  const instances: Instance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(testPostgresUrl!); // empty: the first instance migrates it
    dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-instances-'));
    fake = await startFakeCdek({ validation: 'next-get', cdekNumberAfterGets: 1, faults: { rate: 0.3, seed: SEED, kinds: ['500', '502', '503', 'hang-after'], routes: /\/v2\/orders/ } });
    // The shop and its CDEK account, as the window sets them up (the instances read the key file of the shared data folder).
    const setup = await createApp({ dataDir, database: database.url, log: silentLogger });
    const connected = await setup.dispatch('connections.create', await setup.desktopContext(), { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT });
    expect(connected.ok).toBe(true);
    await setup.close();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await client?.end();
    await fake?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const config = (create?: InstanceConfig['create']): InstanceConfig => ({ database: database.url, dataDir, leaseMs: LEASE_MS, firstRetryMs: 50, maxRetryMs: 1_000, create });
  const count = async (query: string, params: unknown[] = []) => Number((await client.query<{ n: string }>(query, params)).rows[0].n);
  const uploaded = (prefix: string) => count("SELECT count(*) AS n FROM orders WHERE client_number LIKE $1 AND status_key = 'uploaded'", [`${prefix}%`]);
  /** The jobs still queued for the orders of the prefix (a job another test left is its failure, not this one's). */
  const queued = (prefix: string) => count('SELECT count(*) AS n FROM outbox o JOIN orders r ON r.id = o.order_id WHERE r.client_number LIKE $1', [`${prefix}%`]);
  /** The jobs still queued, as a failed wait shows them: why each is not done (its tries, when it is due, who holds it). */
  const leftJobs = async () =>
    (
      await client.query(
        `SELECT o.id, r.client_number, r.status_key, o.action, o.attempts, o.failed_attempts, o.next_attempt_at - $1::bigint AS due_in_ms,
           o.lease_holder, o.lease_until - $1::bigint AS lease_left_ms, o.last_error FROM outbox o JOIN orders r ON r.id = o.order_id ORDER BY o.id LIMIT 20`,
        [Date.now()],
      )
    ).rows;
  /** How often CDEK registered each order of the prefix. */
  const registrations = (prefix: string) => [...fake.registrationCounts()].filter(([number]) => number.startsWith(prefix));

  it('two instances register 1,000 orders created through both, each exactly once, with 30 % of calls failing; none stuck', { timeout: 200_000 }, async () => {
    const [a, b] = await Promise.all([startInstance(config({ prefix: 'A-', count: 500 })), startInstance(config({ prefix: 'B-', count: 500 }))]);
    instances.push(a, b);

    const done = await until(async () => ({ a: await uploaded('A-'), b: await uploaded('B-'), queued: (await queued('A-')) + (await queued('B-')) }), (n) => n.a + n.b === 1_000 && n.queued === 0, 160_000);
    expect(done, `${a.output()}\n${b.output()}\nleft in the queue: ${JSON.stringify(await leftJobs())}`).toEqual({ a: 500, b: 500, queued: 0 });
    expect(await count("SELECT count(*) AS n FROM orders WHERE status_key <> 'uploaded'")).toBe(0);

    // Exactly once each, counted at CDEK, with the number CDEK gave it.
    const counts = [...registrations('A-'), ...registrations('B-')];
    expect(counts).toHaveLength(1_000);
    expect(counts.filter(([, n]) => n !== 1)).toEqual([]);
    const { rows } = await client.query<{ client_number: string; provider_number: string }>('SELECT client_number, provider_number FROM orders');
    expect(rows.filter((o) => o.provider_number !== fake.order(o.client_number)?.cdekNumber)).toEqual([]);

    // Both instances sent creates (each took jobs of the other's orders too), and the faults happened at about the rate asked.
    const sent = [await stopInstance(a), await stopInstance(b)];
    expect(sent.every((n) => n > 0)).toBe(true);
    expect(sent[0] + sent[1]).toBeGreaterThanOrEqual(1_000);
    const faults = Object.values(fake.stats.faults).reduce((x, y) => x + y, 0);
    expect(faults / fake.stats.requests).toBeGreaterThan(0.2);
    expect(faults / fake.stats.requests).toBeLessThan(0.4);
    console.log(`instances: 1000 orders, creates sent ${sent.join(' + ')}, ${fake.stats.requests} calls at CDEK, ${faults} faulted (${JSON.stringify(fake.stats.faults)})`);
  });

  it('an instance killed mid-run leaves its leased jobs; the other finishes them once their lease ends, each order registered once', { timeout: 200_000 }, async () => {
    const [c, d] = await Promise.all([startInstance(config({ prefix: 'C-', count: 300 })), startInstance(config())]);
    instances.push(c, d);
    // Mid-run: some of C's orders registered, and C holding jobs whose calls are out.
    const held = () => count('SELECT count(*) AS n FROM outbox WHERE lease_holder = $1', [c.holder]);
    const before = await until(async () => ({ uploaded: await uploaded('C-'), held: await held() }), (n) => n.uploaded >= 20 && n.held > 0, 100_000, 5);
    c.child.kill('SIGKILL');
    await c.exited;
    const { rows: left } = await client.query<{ order_id: number; lease_until: number }>('SELECT order_id, lease_until FROM outbox WHERE lease_holder = $1', [c.holder]);
    expect(before.held, `${c.output()}\n${d.output()}`).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);

    const created = await count("SELECT count(*) AS n FROM orders WHERE client_number LIKE 'C-%'");
    const after = await until(async () => ({ uploaded: await uploaded('C-'), queued: await queued('C-') }), (n) => n.uploaded === created && n.queued === 0, 120_000);
    expect(after, `${c.output()}\n${d.output()}\nleft in the queue: ${JSON.stringify(await leftJobs())}`).toEqual({ uploaded: created, queued: 0 });

    // The jobs C held are gone from the queue, their orders registered (by D), and every order once at CDEK.
    const orphans = await client.query<{ status_key: string }>('SELECT status_key FROM orders WHERE id = ANY($1)', [left.map((j) => j.order_id)]);
    expect(orphans.rows.map((o) => o.status_key)).toEqual(left.map(() => 'uploaded'));
    const counts = registrations('C-');
    expect(counts).toHaveLength(created);
    expect(counts.filter(([, n]) => n !== 1)).toEqual([]);
    expect(await stopInstance(d)).toBeGreaterThan(0);
    console.log(`instances: killed C with ${left.length} jobs leased (of ${created} orders it created); D finished them`);
  });
});
