import Database from 'better-sqlite3';
import path from 'node:path';
import { hostileUploadBody, orderSheet, streamedZip, workbookParts } from '../fixtures/xlsx/hostile-workbooks';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { tempDataDir } from '../helpers/test-app';

/**
 * The server killed (SIGKILL: no shutdown, as a power cut or the OOM killer) while an async upload of
 * 2,000 orders runs; started again on the same data folder, the upload ends done with every row accounted
 * for — created or reported — its orders' held create jobs released, nothing left `creating`.
 */
const TOKEN = 'crash-test-token-1';

describe('an upload cut short by a crash', () => {
  let serve: ServeProcess | undefined;
  const data = tempDataDir();
  afterAll(async () => {
    await serve?.stop();
    data.remove();
  }, 60_000);

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(serve!.base + url, { method, headers: { Authorization: TOKEN, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, json: (await res.json()) as any };
  };
  const inDatabase = <T>(sql: string, ...params: unknown[]) => {
    const db = new Database(path.join(data.dir, 'shipdesk.db'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  it('is finished after a restart: every row created or reported, the held jobs sent at once', async () => {
    // every 7th order fails its checks: the file has failures to report as well
    const file = await streamedZip(workbookParts(orderSheet({ rows: 2000, bad: (i) => i % 7 === 3 })));
    const args = ['--port', '0', '--data-dir', data.dir, '--token', TOKEN];
    serve = await startServeProcess(args);
    const started = await call('POST', '/v1/orders/upload', hostileUploadBody(file, { mode: 'async' }));
    expect(started.status).toBe(200);
    const uploadId: number = started.json.uploadId;
    // killed as soon as the first orders are written (the state is read straight from the database file)
    let seen: { status: string; done: number } | undefined;
    for (;;) {
      [seen] = inDatabase<{ status: string; done: number }>('SELECT status, done FROM imports WHERE id = ?', uploadId);
      if (seen.status === 'done' || (seen.status === 'creating' && seen.done > 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    serve.child.kill('SIGKILL');
    await new Promise((resolve) => serve!.child.once('exit', resolve));
    serve = undefined;
    expect(seen.status).toBe('creating'); // the kill landed mid-write
    const [cut] = inDatabase<{ n: number }>('SELECT COUNT(*) AS n FROM import_rows WHERE import_id = ?', uploadId);
    expect(cut.n).toBeLessThan(2000);

    serve = await startServeProcess(args);
    let state: any;
    for (;;) {
      state = (await call('GET', `/v1/orders/upload/${uploadId}`)).json;
      if (!['queued', 'reading', 'creating', 'registering'].includes(state.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(state).toMatchObject({ status: 'done', total: 2000, done: 2000, error: null });
    expect(state.created + state.failed).toBe(2000);
    expect(state.failed).toBe(286); // i % 7 === 3 for i < 2000
    expect(state.resultItems).toHaveLength(2000);
    expect(state.resultItems.map((r: { row: number }) => r.row)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 2));
    const numbers = state.resultItems.filter((r: { orderId?: number }) => r.orderId).map((r: { clientNumber: string }) => r.clientNumber);
    expect(new Set(numbers).size).toBe(state.created); // no order created twice
    expect(inDatabase<{ n: number }>('SELECT COUNT(*) AS n FROM orders')[0].n).toBe(state.created);
    // the jobs held while the import wrote go now, not when their hold (5 minutes) runs out
    const held = inDatabase<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE action = 'create' AND attempts = 0 AND next_attempt_at > ?", Date.now() + 60_000);
    expect(held[0].n).toBe(0);
  }, 240_000);
});
