import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type OpenedPostgres } from '../postgres';
import { createTestDatabase, testEngines, testPostgresUrl } from '../test-engines';
import { createPostgresInstancesStore } from './postgres';

/** A promise with its resolve, to hold work open while another instance tries. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

for (const engine of testEngines) {
  describe(`the instances store (${engine.name})`, () => {
    it('runs the work it is asked to, and says so', async () => {
      const opened = await engine.open();
      try {
        let ran = 0;
        expect(await opened.stores.instances.tryRunExclusive('status-refresh', async () => void ran++)).toBe(true);
        expect(ran).toBe(1);
        // Its end lets the next run of the same name go.
        expect(await opened.stores.instances.tryRunExclusive('status-refresh', async () => void ran++)).toBe(true);
        expect(ran).toBe(2);
      } finally {
        await opened.close();
      }
    });
  });
}

describe.skipIf(!testPostgresUrl)('two instances on one PostgreSQL database (skipped: SHIPDESK_TEST_POSTGRES is not set)', () => {
  let database: { url: string; drop(): Promise<void> };
  const opened: OpenedPostgres[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.close();
    await database?.drop();
  });
  const twoInstances = async () => {
    database = await createTestDatabase(testPostgresUrl!);
    for (let i = 0; i < 2; i++) opened.push(await openPostgres({ url: database.url, max: 3 }));
    return opened.map(createPostgresInstancesStore);
  };

  it('runs a job of one name in one instance at a time; another name, or the same once it ended, runs', async () => {
    const [a, b] = await twoInstances();
    const running = gate();
    const started = gate();
    const aRun = a.tryRunExclusive('status-refresh', async () => {
      started.open();
      await running.opened;
    });
    await started.opened;
    let bRan = false;
    expect(await b.tryRunExclusive('status-refresh', async () => void (bRan = true))).toBe(false);
    expect(bRan).toBe(false);
    expect(await b.tryRunExclusive('backup', async () => {})).toBe(true);
    running.open();
    expect(await aRun).toBe(true);
    expect(await b.tryRunExclusive('status-refresh', async () => void (bRan = true))).toBe(true);
    expect(bRan).toBe(true);
  });

  it('lets the job go when its work fails', async () => {
    const [a, b] = await twoInstances();
    await expect(a.tryRunExclusive('status-refresh', async () => Promise.reject(new Error('CDEK is down')))).rejects.toThrow('CDEK is down');
    expect(await b.tryRunExclusive('status-refresh', async () => {})).toBe(true);
  });

  it('carries a broadcast to every instance listening, and refuses one too long for NOTIFY', async () => {
    const [a, b] = await twoInstances();
    const heard = gate();
    const messages: string[] = [];
    const stop = await b.listen((message) => {
      messages.push(message);
      heard.open();
    });
    await a.broadcast('{"companyId":1}');
    await heard.opened;
    expect(messages).toEqual(['{"companyId":1}']);
    await expect(a.broadcast('x'.repeat(8_000))).rejects.toThrow('at most 7900 bytes');
    await stop();
  });
});
