import { attentionStatusKeys } from '../../../shared/attention';
import { finalStatusKeys } from '../../../shared/status-keys';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database';
import { DatabaseTooNewError, loadMigrations, migrate } from './migrate';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('database migrations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are numbered uniquely, starting at 1', () => {
    const versions = loadMigrations().map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('a new data folder gets every migration, recorded in the database', async () => {
    const store = openDatabase({ file: join(dir, 'shipdesk.db'), now: 1000 });
    const recorded = store.sqlite.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual(loadMigrations().map((m) => ({ version: m.version, applied_at: 1000 })));
    expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    await store.close();
  });

  it('opening the same folder again applies nothing twice', async () => {
    const file = join(dir, 'shipdesk.db');
    await openDatabase({ file }).close();
    const sqlite = new Database(file);
    expect(migrate(sqlite, loadMigrations())).toEqual([]);
    sqlite.close();
  });

  it('a database written by a newer ShipDesk is refused with a clear message and left untouched', async () => {
    const file = join(dir, 'shipdesk.db');
    await openDatabase({ file }).close();
    const newer = loadMigrations().at(-1)!.version + 1; // numbers may have gaps while parallel work lands
    const raw = new Database(file);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(newer, 'from_the_future', 1);
    raw.close();

    expect(() => openDatabase({ file })).toThrow(DatabaseTooNewError);
    expect(() => openDatabase({ file })).toThrow(/newer ShipDesk .*schema \d+.*Update ShipDesk/);
    const after = new Database(file);
    expect(after.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: newer });
    after.close();
  });

  it('a migration that fails leaves no trace of itself', () => {
    const sqlite = new Database(join(dir, 'shipdesk.db'));
    const good = loadMigrations();
    const newest = good.at(-1)!.version;
    const broken = [...good, { version: newest + 1, name: 'broken', sql: 'CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;' }];
    expect(() => migrate(sqlite, broken)).toThrow(/no such table/);
    expect(tables(sqlite)).not.toContain('half_done');
    expect(sqlite.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: newest });
    sqlite.close();
  });

  describe('0001 init', () => {
    it('creates companies, orders, statuses, outbox and the sandbox books', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version === 1));
      expect(tables(sqlite)).toEqual(
        expect.arrayContaining(['companies', 'orders', 'order_statuses', 'outbox', 'sandbox_shipments', 'schema_migrations']),
      );
      sqlite.close();
    });

    it('lets a clientNumber be reused only once its order is canceled or deleted', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version === 1));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      const insert = sqlite.prepare(
        `INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name,
           recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at)
         VALUES (1, 'N-1', 'p', ?, 'uploading', 0, 'r', '1', 0, 0, '{}', 0, 0)`,
      );
      insert.run('active');
      expect(() => insert.run('active')).toThrow(/UNIQUE/);
      sqlite.prepare("UPDATE orders SET state = 'canceled'").run();
      expect(() => insert.run('active')).not.toThrow();
      sqlite.close();
    });
  });

  describe('0007 provider connections', () => {
    const upTo7 = () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 7));
      return sqlite;
    };

    it('creates the connections (one id per account: the providerConnectId) and the sync bookkeeping', () => {
      const sqlite = upTo7();
      expect(tables(sqlite)).toEqual(expect.arrayContaining(['provider_connections', 'provider_sync_state']));
      const insert = sqlite.prepare(
        "INSERT INTO provider_connections (provider_key, name, test_mode, base_url, credentials, created_at, updated_at) VALUES ('cdek', ?, ?, NULL, ?, 0, 0)",
      );
      expect(insert.run('Основной', 0, 'v1.sealed').lastInsertRowid).toBe(1);
      expect(insert.run('Второй склад', 1, null).lastInsertRowid).toBe(2);
      expect(() => insert.run('Bad flag', 2, null)).toThrow(/CHECK/);
      sqlite.close();
    });

    it('keeps one sync state per service and kind of data', () => {
      const sqlite = upTo7();
      const upsert = sqlite.prepare(
        `INSERT INTO provider_sync_state (provider_key, what, synced_at, attempted_at, total, last_error) VALUES ('cdek', 'offices', ?, ?, ?, NULL)
         ON CONFLICT (provider_key, what) DO UPDATE SET synced_at = excluded.synced_at, total = excluded.total`,
      );
      upsert.run(1, 1, 10);
      upsert.run(2, 2, 12);
      expect(sqlite.prepare('SELECT synced_at, total FROM provider_sync_state').all()).toEqual([{ synced_at: 2, total: 12 }]);
      sqlite.close();
    });
  });
  describe('0003 order lifecycle', () => {
    const upTo3 = () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 3));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      sqlite
        .prepare(
          `INSERT INTO orders (id, company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name,
             recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at)
           VALUES (1, 1, 'N-1', 'p', 'active', 'uploaded', 0, 'r', '1', 0, 0, '{}', 0, 0)`,
        )
        .run();
      return sqlite;
    };
    const columns = (sqlite: Database.Database, table: string) => (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

    it('adds quantity_delivered to orders and updated_at to the sandbox books, both empty for existing rows', () => {
      const sqlite = upTo3();
      expect(columns(sqlite, 'orders')).toContain('quantity_delivered');
      expect(columns(sqlite, 'sandbox_shipments')).toContain('updated_at');
      expect(sqlite.prepare('SELECT quantity_delivered FROM orders').get()).toEqual({ quantity_delivered: null });
      sqlite.close();
    });

    it('records a status the delivery service reported only once', () => {
      const sqlite = upTo3();
      const insert = sqlite.prepare(
        "INSERT INTO order_statuses (order_id, company_id, key, created_at, created_provider) VALUES (1, 1, 'onWay', 5, ?)",
      );
      insert.run(1000);
      expect(() => insert.run(1000)).toThrow(/UNIQUE/);
      insert.run(2000); // the same key at another time is another status
      insert.run(null); // our own statuses carry no service time and may repeat
      insert.run(null);
      sqlite.close();
    });

    it('0017 keeps every status and outbox text and adds their messages beside them, empty', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version < 17));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      sqlite
        .prepare(
          `INSERT INTO orders (id, company_id, client_number, provider_key, state, status_key, status_description, status_changed_at, recipient_name,
             recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at)
           VALUES (1, 1, 'N-1', 'p', 'active', 'uploading', 'old words', 0, 'r', '1', 0, 0, '{}', 0, 0)`,
        )
        .run();
      sqlite.prepare("INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) VALUES (1, 'create', 1, 9, 'down', 0)").run();
      migrate(sqlite, loadMigrations().filter((m) => m.version === 17));
      expect(sqlite.prepare('SELECT status_description, status_description_message FROM orders').get()).toEqual({ status_description: 'old words', status_description_message: null });
      expect(sqlite.prepare('SELECT last_error, last_error_message FROM outbox').get()).toEqual({ last_error: 'down', last_error_message: null });
      sqlite.close();
    });

    it('keeps queued jobs and never gives the id of a dropped job to a new one', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 2));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      sqlite
        .prepare(
          `INSERT INTO orders (id, company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name,
             recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at)
           VALUES (1, 1, 'N-1', 'p', 'active', 'uploading', 0, 'r', '1', 0, 0, '{}', 0, 0)`,
        )
        .run();
      sqlite.prepare("INSERT INTO outbox (id, order_id, action, attempts, next_attempt_at, created_at) VALUES (7, 1, 'create', 2, 9, 0)").run();
      migrate(sqlite, loadMigrations().filter((m) => m.version === 3));
      expect(sqlite.prepare('SELECT id, action, attempts FROM outbox').all()).toEqual([{ id: 7, action: 'create', attempts: 2 }]);
      sqlite.prepare('DELETE FROM outbox').run();
      const next = sqlite.prepare("INSERT INTO outbox (order_id, action, next_attempt_at, created_at) VALUES (1, 'cancel', 0, 0)").run();
      expect(next.lastInsertRowid).toBe(8);
      sqlite.close();
    });
  });

  describe('0002 reference data', () => {
    const upTo2 = () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 2));
      return sqlite;
    };
    const point = (id: number, extra: Record<string, unknown> = {}) => ({
      id, source: 'sandbox', provider_key: 'sandbox-express', code: `C${id}`, name: 'ПВЗ', country_code: 'RU', city: 'Москва', address: 'Москва',
      available_operation: 3, type: 1, city_fold: 'москва', community_fold: 'тверской район', search_text: '', ...extra,
    });
    const insertPoint = (sqlite: Database.Database, row: Record<string, unknown>) =>
      sqlite.prepare(`INSERT INTO points (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map((k) => `@${k}`).join(', ')})`).run(row);

    it('creates the points, tariffs, additional services and the loaded-versions tables', () => {
      const sqlite = upTo2();
      expect(tables(sqlite)).toEqual(expect.arrayContaining(['reference_data', 'points', 'tariffs', 'provider_services']));
      sqlite.close();
    });

    it('answers a city (or community) and service question from indexes, provider keys in any case', () => {
      const sqlite = upTo2();
      insertPoint(sqlite, point(1));
      insertPoint(sqlite, point(2, { provider_key: 'sandbox-post' }));
      const where = '(city_fold = ? OR community_fold = ?) AND provider_key = ?';
      const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM points WHERE ${where}`).all('москва', 'москва', 'sandbox-express') as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
      expect(plan).toMatch(/USING (COVERING )?INDEX points_(city|provider)/);
      expect(plan).not.toMatch(/SCAN points/);
      expect(sqlite.prepare(`SELECT id FROM points WHERE ${where}`).all('москва', 'москва', 'SANDBOX-Express')).toEqual([{ id: 1 }]);
      sqlite.close();
    });

    it('refuses flags other than 0/1, unknown point types and a second row for one service and extra param', () => {
      const sqlite = upTo2();
      expect(() => insertPoint(sqlite, point(1, { cod: 2 }))).toThrow(/CHECK/);
      expect(() => insertPoint(sqlite, point(1, { type: 5 }))).toThrow(/CHECK/);
      const service = sqlite.prepare(
        "INSERT INTO provider_services (provider_key, extra_param_name, source, position, name, value_type, description) VALUES (?, 'insurance', 's', 0, 'n', ?, 'd')",
      );
      service.run('sandbox-express', 'bool');
      expect(() => service.run('SANDBOX-EXPRESS', 'bool')).toThrow(/UNIQUE/);
      expect(() => service.run('sandbox-post', 'money')).toThrow(/CHECK/);
      sqlite.close();
    });
  });
  describe('0005 imports', () => {
    const upTo5 = () => {
      const sqlite = new Database(':memory:');
      sqlite.pragma('foreign_keys = ON');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 5));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      return sqlite;
    };
    const addImport = (sqlite: Database.Database, status = 'staged') =>
      Number(
        sqlite
          .prepare("INSERT INTO imports (company_id, origin, mode, status, file_size, source, created_at, updated_at) VALUES (1, 'desktop', 'async', ?, 3, x'010203', 0, 0)")
          .run(status).lastInsertRowid,
      );

    it('keeps each import with its file, and refuses an unknown status', () => {
      const sqlite = upTo5();
      const id = addImport(sqlite);
      expect(sqlite.prepare('SELECT status, source, total, errors_to_file FROM imports WHERE id = ?').get(id)).toEqual({
        status: 'staged', source: Buffer.from([1, 2, 3]), total: 0, errors_to_file: 0,
      });
      expect(() => addImport(sqlite, 'exploded')).toThrow(/CHECK/);
      sqlite.close();
    });

    it('records each order of an import once, and forgets them with their import', () => {
      const sqlite = upTo5();
      const id = addImport(sqlite, 'done');
      const row = sqlite.prepare('INSERT INTO import_rows (import_id, seq, row, last_row, client_number, order_id, created_at, error) VALUES (?, ?, 3, 4, ?, NULL, NULL, ?)');
      row.run(id, 0, 'A-1', '{"code":"040002"}');
      expect(() => row.run(id, 0, 'A-1', '{}')).toThrow(/UNIQUE|PRIMARY KEY/);
      sqlite.prepare('DELETE FROM imports WHERE id = ?').run(id);
      expect(sqlite.prepare('SELECT COUNT(*) AS n FROM import_rows').get()).toEqual({ n: 0 });
      sqlite.close();
    });
  });

  describe('0008 upstream services', () => {
    const upTo8 = () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 8));
      sqlite.prepare("INSERT INTO provider_connections (provider_key, name, test_mode, base_url, credentials, created_at, updated_at) VALUES ('upstream', 'Агрегатор', 0, 'http://up', 'v1.x', 0, 0)").run();
      return sqlite;
    };
    const add = (sqlite: Database.Database, key: string, listed = 1) =>
      sqlite
        .prepare("INSERT INTO upstream_services (connection_id, remote_key, name, description, test, capabilities, position, listed, synced_at) VALUES (1, ?, 'N', '', 0, '{}', 0, ?, 0)")
        .run(key, listed);

    it('keeps one row per upstream service of a connection, listed or not', () => {
      const sqlite = upTo8();
      add(sqlite, 'cdek');
      add(sqlite, 'sandbox-post', 0);
      expect(() => add(sqlite, 'cdek')).toThrow(/UNIQUE|PRIMARY KEY/);
      expect(() => add(sqlite, 'x', 2)).toThrow(/CHECK/);
      sqlite.close();
    });

    it('forgets the services with their connection', () => {
      const sqlite = upTo8();
      add(sqlite, 'cdek');
      sqlite.prepare('DELETE FROM provider_connections WHERE id = 1').run();
      expect(sqlite.prepare('SELECT COUNT(*) AS n FROM upstream_services').get()).toEqual({ n: 0 });
      sqlite.close();
    });
  });

  describe('0006 desktop data', () => {
    const upTo6 = () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version <= 6));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0), (2, 'B', 'tb', 0)").run();
      return sqlite;
    };

    it('keeps one draft per id and company; the same id may exist in another company', () => {
      const sqlite = upTo6();
      const add = (company: number, id: string) =>
        sqlite.prepare("INSERT INTO drafts (company_id, id, data, created_at, updated_at) VALUES (?, ?, '{}', 0, 0)").run(company, id);
      add(1, 'd-1');
      add(2, 'd-1');
      expect(() => add(1, 'd-1')).toThrow(/UNIQUE|PRIMARY KEY/);
      sqlite.close();
    });

    it('allows one default sender profile per company', () => {
      const sqlite = upTo6();
      const add = (company: number, isDefault: number) =>
        sqlite.prepare("INSERT INTO sender_profiles (company_id, name, sender, is_default, created_at, updated_at) VALUES (?, 'S', '{}', ?, 0, 0)").run(company, isDefault);
      add(1, 1);
      add(1, 0);
      add(2, 1);
      expect(() => add(1, 1)).toThrow(/UNIQUE/);
      expect(() => add(1, 2)).toThrow(/CHECK/);
      sqlite.close();
    });

    it('records refresh runs of one company or of all', () => {
      const sqlite = upTo6();
      const add = (company: number | null, trigger: string) =>
        sqlite
          .prepare('INSERT INTO refresh_runs (company_id, trigger, started_at, finished_at, checked, changed, statuses, failed) VALUES (?, ?, 0, 1, 0, 0, 0, 0)')
          .run(company, trigger);
      add(null, 'schedule');
      add(1, 'manual');
      expect(() => add(1, 'cron')).toThrow(/CHECK/);
      sqlite.close();
    });
  });
});

describe('0009 live orders index', () => {
  it('lets the orders list count a company\'s live orders from an index', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 9));
    const plan = sqlite
      .prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM orders WHERE company_id = 1 AND state != 'deleted'")
      .all()
      .map((r) => (r as { detail: string }).detail)
      .join(' ');
    expect(plan).toMatch(/USING (COVERING )?INDEX orders_company_live/);
    sqlite.close();
  });
});

describe('0010 orders list search', () => {
  const plan = (sqlite: Database.Database, query: string) =>
    sqlite
      .prepare(`EXPLAIN QUERY PLAN ${query}`)
      .all()
      .map((r) => (r as { detail: string }).detail)
      .join(' ');

  it('indexes the orders that existed before it, and every order written after it', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 9));
    sqlite.exec("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'shop', 't', 0)");
    const add = sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, status_key, status_changed_at, recipient_name, recipient_phone,
         cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, ?, 'sandbox-express', 'uploaded', 0, ?, '+79161234567', 0, 0, '{}', 0, 0)`,
    );
    add.run('OLD-1', 'Анна Смирнова');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 10));
    add.run('NEW-2', 'Борис Смирнов');
    const found = (text: string) =>
      (sqlite.prepare('SELECT rowid AS id FROM orders_search WHERE orders_search MATCH ? ORDER BY rowid').all(`"${text}"`) as { id: number }[]).map((r) => r.id);
    expect(found('смирнов')).toEqual([1, 2]);
    sqlite.exec("UPDATE orders SET provider_number = 'SBE000000042' WHERE id = 1");
    expect(found('000042')).toEqual([1]);
    sqlite.exec('DELETE FROM orders WHERE id = 1');
    expect(found('смирнов')).toEqual([2]);
    sqlite.close();
  });

  it('lets the list sort a company\'s live orders by each sortable column from an index', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 10));
    for (const [column, index] of [
      ['created_at', 'orders_list_created'],
      ['client_number', 'orders_company_client_number'],
      ['status_key', 'orders_company_status'],
      ['cod_kopecks', 'orders_list_cod'],
    ]) {
      const detail = plan(sqlite, `SELECT * FROM orders WHERE company_id = 1 AND state != 'deleted' ORDER BY ${column} DESC, id DESC LIMIT 100`);
      expect(detail).toMatch(new RegExp(`USING INDEX ${index}`));
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
    sqlite.close();
  });
});

describe('0011 import wizard', () => {
  const upTo11 = () => {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 11));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'a', 0), (2, 'B', 'b', 0)").run();
    return sqlite;
  };

  it('keeps one mapping preset per name and company; another company may use the same name', () => {
    const sqlite = upTo11();
    const add = sqlite.prepare("INSERT INTO import_presets (company_id, name, settings, headers, created_at, updated_at) VALUES (?, ?, '{}', '[]', 0, 0)");
    add.run(1, 'Shop export');
    add.run(2, 'Shop export');
    expect(() => add.run(1, 'Shop export')).toThrow(/UNIQUE/);
    expect(() => add.run(3, 'Other')).toThrow(/FOREIGN KEY/);
    sqlite.close();
  });

  it('lets an import row name the draft its order became', () => {
    const sqlite = upTo11();
    const importId = Number(
      sqlite.prepare("INSERT INTO imports (company_id, origin, mode, status, file_size, created_at, updated_at) VALUES (1, 'desktop', 'async', 'done', 1, 0, 0)").run().lastInsertRowid,
    );
    sqlite.prepare("INSERT INTO import_rows (import_id, seq, row, last_row, client_number, draft_id) VALUES (?, 0, 2, 2, 'A-1', 'd-abc')").run(importId);
    expect(sqlite.prepare('SELECT order_id, draft_id, error FROM import_rows').get()).toEqual({ order_id: null, draft_id: 'd-abc', error: null });
    sqlite.close();
  });
});

describe('0012 stuck orders index', () => {
  it('counts a company\'s live unfinished orders by their last status change from the index, not by reading every order', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 12));
    const plan = sqlite
      .prepare(
        "EXPLAIN QUERY PLAN SELECT count(*) FROM orders WHERE company_id = 1 AND state = 'active' AND status_key NOT IN ('delivered', 'returned', 'partialReturn', 'deliveryCanceled', 'lost') AND status_changed_at <= 5",
      )
      .all()
      .map((r) => (r as { detail: string }).detail)
      .join(' ');
    expect(plan).toMatch(/USING (COVERING )?INDEX orders_stuck/);
    sqlite.close();
  });

  it('names exactly the final statuses, so the stuck query (which repeats them) keeps matching it', () => {
    const text = loadMigrations().find((m) => m.version === 12)!.sql;
    const named = [...text.match(/NOT IN \(([^)]*)\)/)![1].matchAll(/'(\w+)'/g)].map((m) => m[1]).sort();
    expect(named).toEqual([...finalStatusKeys].sort());
  });
});

describe('0021 connection settings', () => {
  it('gives connections made before it empty settings, and keeps what a kind stores', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 20));
    sqlite.prepare("INSERT INTO provider_connections (provider_key, name, created_at, updated_at) VALUES ('cdek', 'Old', 0, 0)").run();
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 21));
    sqlite.prepare("INSERT INTO provider_connections (provider_key, name, settings, created_at, updated_at) VALUES ('toy', 'New', '{\"copies\":2}', 0, 0)").run();
    expect(sqlite.prepare('SELECT name, settings FROM provider_connections ORDER BY id').all()).toEqual([
      { name: 'Old', settings: '{}' },
      { name: 'New', settings: '{"copies":2}' },
    ]);
    sqlite.close();
  });
});

describe('0025 usual drop-off points', () => {
  it('keeps one usual office per company and service', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 25));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0), (2, 'B', 'tb', 0)").run();
    const add = (company: number, provider: string, point: number) =>
      sqlite.prepare('INSERT INTO usual_drop_off_points (company_id, provider_key, point_id, updated_at) VALUES (?, ?, ?, 0)').run(company, provider, point);
    add(1, 'cdek', 10);
    add(1, 'sandbox-post', 11);
    add(2, 'cdek', 12);
    expect(() => add(1, 'cdek', 13)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add(3, 'cdek', 13)).toThrow(/FOREIGN KEY/);
    sqlite.close();
  });
});

describe('0026 orders search by the recipient', () => {
  it('indexes the city, e-mail, street and phone digits of orders written before it and after it', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 12));
    sqlite.exec("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'shop', 't', 0)");
    const add = sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, status_key, status_changed_at, recipient_name, recipient_phone, recipient_city,
         cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, ?, 'sandbox-express', 'uploaded', 0, ?, ?, ?, 0, 0, ?, 0, 0)`,
    );
    add.run('OLD-1', 'Ольга Семёнова', '8 (916) 123-45-67', 'Уфа', JSON.stringify({ recipient: { email: 'olga@mail.ru', street: 'ул. Ленина' } }));
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 26));
    add.run('NEW-2', 'Пётр Ёжиков', '+7 (917) 444-33-22', 'Москва', JSON.stringify({ recipient: { addressString: 'Москва, Тверская 7' } }));
    const found = (text: string) =>
      (sqlite.prepare('SELECT rowid AS id FROM orders_search WHERE orders_search MATCH ? ORDER BY rowid').all(`"${text}"`) as { id: number }[]).map((r) => r.id);
    expect(found('уфа')).toEqual([1]);
    expect(found('семенова')).toEqual([1]);
    expect(found('olga@')).toEqual([1]);
    expect(found('ленина')).toEqual([1]);
    expect(found('79161234567')).toEqual([1]);
    expect(found('ежиков')).toEqual([2]);
    expect(found('тверская')).toEqual([2]);
    expect(found('9174443322')).toEqual([2]);
    sqlite.exec("UPDATE orders SET recipient_city = 'Казань', provider_number = 'SBE000000042' WHERE id = 1");
    expect(found('уфа')).toEqual([]);
    expect(found('казань')).toEqual([1]);
    expect(found('000042')).toEqual([1]);
    sqlite.exec('DELETE FROM orders WHERE id = 1');
    expect(found('казань')).toEqual([]);
    sqlite.close();
  });
});

describe('0016 courier calls', () => {
  it('keeps a company\'s calls with the service\'s number exactly when accepted or canceled', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 16));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    const add = (company: number, state: string, number: string | null, canceledAt: number | null = null) =>
      sqlite
        .prepare("INSERT INTO courier_calls (company_id, provider_key, date, time_start, time_end, request, state, provider_number, created_at, canceled_at) VALUES (?, 'sandbox-express', '2026-03-02', '10:00', '14:00', '{}', ?, ?, 0, ?)")
        .run(company, state, number, canceledAt);
    add(1, 'accepted', 'C-1');
    add(1, 'refused', null);
    add(1, 'canceled', 'C-2', 5);
    expect(() => add(1, 'accepted', null)).toThrow(/CHECK/);
    expect(() => add(1, 'refused', 'C-3')).toThrow(/CHECK/);
    expect(() => add(1, 'canceled', 'C-4')).toThrow(/CHECK/);
    expect(() => add(1, 'lost', 'C-5')).toThrow(/CHECK/);
    expect(() => add(2, 'refused', null)).toThrow(/FOREIGN KEY/);
    sqlite.close();
  });
});

describe('0029 courier calls waiting for their number', () => {
  it('keeps an accepted call by the service\'s reference alone, and the calls kept before', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 16));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    const add = (state: string, number: string | null, reference: string | null) =>
      sqlite
        .prepare("INSERT INTO courier_calls (company_id, provider_key, date, time_start, time_end, request, state, provider_number, additional_provider_number, created_at) VALUES (1, 'cdek', '2026-03-02', '10:00', '14:00', '{}', ?, ?, ?, 0)")
        .run(state, number, reference);
    add('accepted', 'C-1', null);
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 29));
    add('accepted', null, 'uuid-1');
    expect(() => add('accepted', null, null)).toThrow(/CHECK/);
    expect(() => add('refused', null, 'uuid-2')).toThrow(/CHECK/);
    expect(sqlite.prepare('SELECT provider_number FROM courier_calls ORDER BY id').pluck().all()).toEqual(['C-1', null]);
    sqlite.close();
  });
});

describe('0013 users and sessions', () => {
  function migrated() {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 13));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, is_desktop, created_at) VALUES (1, 'Shop', 't', 1, 0)").run();
    return sqlite;
  }

  it('a packer name is unique within the shop whatever its case', () => {
    const sqlite = migrated();
    sqlite.prepare("INSERT INTO users (company_id, name, password_hash, created_at) VALUES (1, 'Anna', 'x', 0)").run();
    expect(() => sqlite.prepare("INSERT INTO users (company_id, name, password_hash, created_at) VALUES (1, 'ANNA', 'y', 0)").run()).toThrow(/UNIQUE/);
    sqlite.close();
  });

  it('a packer session needs its user and goes when the user is removed; an owner session has none', () => {
    const sqlite = migrated();
    const user = sqlite.prepare("INSERT INTO users (company_id, name, password_hash, created_at) VALUES (1, 'Anna', 'x', 0)").run().lastInsertRowid;
    const insert = sqlite.prepare('INSERT INTO sessions (secret_hash, role, company_id, user_id, created_at, last_seen_at) VALUES (?, ?, 1, ?, 0, 0)');
    expect(() => insert.run('a', 'packer', null)).toThrow(/CHECK/);
    expect(() => insert.run('b', 'owner', user)).toThrow(/CHECK/);
    insert.run('c', 'packer', user);
    insert.run('d', 'owner', null);
    sqlite.prepare('DELETE FROM users WHERE id = ?').run(user);
    expect(sqlite.prepare('SELECT secret_hash FROM sessions').all()).toEqual([{ secret_hash: 'd' }]);
    sqlite.close();
  });
});

describe('0019 aggregator clients', () => {
  function migrated(upTo: number) {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= upTo));
    return sqlite;
  }
  const point = (sqlite: Database.Database, code: string) =>
    sqlite
      .prepare(
        `INSERT INTO points (source, provider_key, code, name, country_code, city, address, available_operation, type, city_fold, search_text)
         VALUES ('test', 'sandbox-express', ?, 'Пункт', 'RU', 'Москва', 'Москва, Тверская 7', 3, 1, 'москва', 'москва')`,
      )
      .run(code).lastInsertRowid;

  it('keeps the points written before it, with no street type or description until the next reference load', () => {
    const sqlite = migrated(18);
    const old = point(sqlite, 'OLD-1');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 19));
    expect(sqlite.prepare('SELECT code, street_type, description FROM points WHERE id = ?').get(old)).toEqual({ code: 'OLD-1', street_type: null, description: null });
    sqlite.prepare("UPDATE points SET street_type = 'ул.', description = 'вход со двора' WHERE id = ?").run(old);
    expect(sqlite.prepare('SELECT street_type, description FROM points WHERE id = ?').get(old)).toEqual({ street_type: 'ул.', description: 'вход со двора' });
    sqlite.close();
  });

  it('gives a company one API login, a login to one company only, and forgets it with its company', () => {
    const sqlite = migrated(19);
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0), (2, 'B', 'tb', 0)").run();
    const add = (company: number, login: string) =>
      sqlite.prepare("INSERT INTO api_logins (company_id, login, password_hash, updated_at) VALUES (?, ?, 'scrypt$…', 0)").run(company, login);
    add(1, 'shop-site');
    expect(() => add(1, 'another')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add(2, 'shop-site')).toThrow(/UNIQUE/);
    expect(() => add(3, 'nobody')).toThrow(/FOREIGN KEY/);
    add(2, 'b-site');
    sqlite.prepare('DELETE FROM companies WHERE id = 1').run();
    expect(sqlite.prepare('SELECT company_id, login FROM api_logins').all()).toEqual([{ company_id: 2, login: 'b-site' }]);
    sqlite.close();
  });
});

describe('0023 orders that need attention', () => {
  it('counts a company\'s orders in attention statuses from an index, and an order starts not marked seen', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 23));
    const keys = attentionStatusKeys.map((k) => `'${k}'`).join(', ');
    const plan = sqlite
      .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM orders WHERE company_id = 1 AND state = 'active' AND status_key IN (${keys}) AND (attention_seen_at IS NULL OR attention_seen_at <> status_changed_at)`)
      .all()
      .map((r) => (r as { detail: string }).detail)
      .join(' ');
    expect(plan).toMatch(/SEARCH orders USING INDEX \w+ \(company_id=\? AND status_key=\?\)/);
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    sqlite
      .prepare(
        "INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name, recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, 'A-1', 'cdek', 'active', 'problem', 5, 'N', '1', 0, 0, '{}', 5, 5)",
      )
      .run();
    expect(sqlite.prepare('SELECT attention_seen_at FROM orders').get()).toEqual({ attention_seen_at: null });
    sqlite.close();
  });
});

describe('0024 webhooks', () => {
  it('queues one call per webhook of the status\'s company with each recorded status, and forgets them with the webhook', () => {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 24));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0), (2, 'B', 'tb', 0)").run();
    const hook = sqlite.prepare("INSERT INTO webhooks (uuid, company_id, type, url, secret, created_at) VALUES (?, ?, 'ORDER_STATUS', ?, 's', 0)");
    hook.run('u-1', 1, 'https://a.example/one');
    hook.run('u-2', 1, 'https://a.example/two');
    hook.run('u-3', 2, 'https://b.example/hook');
    expect(() => hook.run('u-4', 1, 'https://a.example/one')).toThrow(/UNIQUE/);
    expect(() => sqlite.prepare("INSERT INTO webhooks (uuid, company_id, type, url, secret, created_at) VALUES ('u-5', 1, 'ORDER_CREATED', 'https://a.example', 's', 0)").run()).toThrow(/CHECK/);
    sqlite
      .prepare("INSERT INTO orders (id, company_id, client_number, provider_key, status_key, status_changed_at, recipient_name, recipient_phone, recipient_city, cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (7, 1, 'N-1', 'sandbox-express', 'uploading', 0, 'Анна', '+79210000000', 'Казань', 0, 0, '{}', 0, 0)")
      .run();
    const status = sqlite.prepare("INSERT INTO order_statuses (order_id, company_id, key, created_at) VALUES (7, 1, ?, 0)").run('uploading').lastInsertRowid;
    const queued = () => sqlite.prepare('SELECT w.uuid, d.status_id, d.state, d.next_attempt_at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id ORDER BY d.id').all();
    expect(queued()).toEqual([
      { uuid: 'u-1', status_id: status, state: 'pending', next_attempt_at: 0 },
      { uuid: 'u-2', status_id: status, state: 'pending', next_attempt_at: 0 },
    ]);
    expect(() => sqlite.prepare("UPDATE webhook_deliveries SET state = 'delivered' WHERE id = 1").run()).toThrow(/CHECK/);
    sqlite.prepare("INSERT INTO webhook_attempts (delivery_id, webhook_id, at, http_status) VALUES (1, 1, 5, 500)").run();
    expect(() => sqlite.prepare('INSERT INTO webhook_attempts (delivery_id, webhook_id, at) VALUES (1, 1, 6)').run()).toThrow(/CHECK/);
    sqlite.prepare("DELETE FROM webhooks WHERE uuid = 'u-1'").run();
    expect(queued()).toEqual([{ uuid: 'u-2', status_id: status, state: 'pending', next_attempt_at: 0 }]);
    expect(sqlite.prepare('SELECT COUNT(*) AS n FROM webhook_attempts').get()).toEqual({ n: 0 });
    sqlite.close();
  });
});

describe('0022 outbox leases', () => {
  it('leaves queued jobs free to claim, with no failure counted', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version < 22));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    sqlite
      .prepare("INSERT INTO orders (id, company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name, recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, 1, 'N-1', 'cdek', 'active', 'uploading', 0, 'R', '+7', 0, 0, '{}', 0, 0)")
      .run();
    sqlite.prepare("INSERT INTO outbox (order_id, action, attempts, next_attempt_at, created_at) VALUES (1, 'create', 2, 5, 0)").run();
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 22));
    expect(sqlite.prepare('SELECT attempts, holder, lease_until, failed_attempts FROM outbox').get()).toEqual({ attempts: 2, holder: null, lease_until: null, failed_attempts: 0 });
    sqlite.close();
  });
});

describe('0045 more messages by key', () => {
  it('gives each webhook reason recorded in English its key, a timeout its seconds, and leaves other text alone', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version < 45));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    sqlite.prepare("INSERT INTO webhooks (id, uuid, company_id, type, url, secret, created_at) VALUES (1, 'u-1', 1, 'ORDER_STATUS', 'https://a.example', 's', 0)").run();
    sqlite.prepare("INSERT INTO webhook_deliveries (id, webhook_id, status_id) VALUES (1, 1, 1)").run();
    const attempt = sqlite.prepare('INSERT INTO webhook_attempts (delivery_id, webhook_id, at, http_status, error) VALUES (1, 1, ?, ?, ?)');
    attempt.run(1, null, 'the site refused the connection');
    attempt.run(2, null, 'no answer within 10 s');
    attempt.run(3, null, "the site's HTTPS certificate was not accepted");
    attempt.run(4, null, 'something else');
    attempt.run(5, 500, null);
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 45));
    const stored = (sqlite.prepare('SELECT error_message FROM webhook_attempts ORDER BY at').all() as { error_message: string | null }[]).map((r) => r.error_message && JSON.parse(r.error_message));
    expect(stored).toEqual([{ key: 'webhook.refused' }, { key: 'webhook.timeout', params: { seconds: 10 } }, { key: 'webhook.certificate' }, null, null]);
    expect(sqlite.prepare('SELECT error_message FROM courier_calls').all()).toEqual([]);
    sqlite.close();
  });
});

describe('0046 delivery prices beside the payload', () => {
  it('fills the two prices of kept orders in kopecks from their payload, and none where the payload names none', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version < 46));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    const add = sqlite.prepare(
      "INSERT INTO orders (id, company_id, client_number, provider_key, status_key, status_changed_at, recipient_name, recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (?, 1, ?, 'cdek', 'uploading', 0, 'R', '+7', 0, 0, ?, 0, 0)",
    );
    add.run(1, 'P-1', JSON.stringify({ cost: { quotedDeliveryCost: 389.7, deliveryCost: 0.29 } }));
    add.run(2, 'P-2', JSON.stringify({ cost: { codCost: 100 } }));
    add.run(3, 'P-3', '{}');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 46));
    expect(sqlite.prepare('SELECT id, quoted_delivery_kopecks, delivery_kopecks FROM orders ORDER BY id').all()).toEqual([
      { id: 1, quoted_delivery_kopecks: 38_970, delivery_kopecks: 29 },
      { id: 2, quoted_delivery_kopecks: null, delivery_kopecks: null },
      { id: 3, quoted_delivery_kopecks: null, delivery_kopecks: null },
    ]);
    sqlite.close();
  });
});

describe('0049 outbox lease holder', () => {
  it('keeps a held job with its holder, now named lease_holder, and its lease', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version < 49));
    sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 'ta', 0)").run();
    sqlite
      .prepare("INSERT INTO orders (id, company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name, recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, 1, 'N-1', 'cdek', 'active', 'uploading', 0, 'R', '+7', 0, 0, '{}', 0, 0)")
      .run();
    sqlite.prepare("INSERT INTO outbox (order_id, action, attempts, next_attempt_at, created_at, holder, lease_until) VALUES (1, 'create', 1, 5, 0, 'run-1', 9000)").run();
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 49));
    expect(sqlite.prepare('SELECT lease_holder, lease_until FROM outbox').get()).toEqual({ lease_holder: 'run-1', lease_until: 9000 });
    sqlite.close();
  });
});

describe('0050 orders search per group', () => {
  it('indexes the orders written before it, the service number apart, and every order written or changed after it', () => {
    const sqlite = new Database(':memory:');
    migrate(sqlite, loadMigrations().filter((m) => m.version < 50));
    sqlite.exec("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'shop', 't', 0)");
    const add = sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, status_key, status_changed_at, recipient_name, recipient_phone, recipient_city, provider_number,
         cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (1, ?, 'sandbox-express', 'uploaded', 0, ?, ?, ?, ?, 0, 0, ?, 0, 0)`,
    );
    add.run('OLD-1', 'Ольга Семёнова', '8 (916) 123-45-67', 'Уфа', 'SBE000000041', JSON.stringify({ recipient: { email: 'olga@mail.ru', street: 'ул. Ленина' } }));
    add.run('OLD-2', 'Борис Иванов', '+79265554433', 'Москва', null, '{}');
    migrate(sqlite, loadMigrations().filter((m) => m.version <= 50));
    add.run('NEW-3', 'Пётр Ёжиков', '+7 (917) 444-33-22', 'Москва', 'SBE000000043', JSON.stringify({ recipient: { addressString: 'Москва, Тверская 7' } }));
    const found = (table: 'orders_search' | 'orders_search_numbers', text: string) =>
      (sqlite.prepare(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).all(`"${text}"`) as { id: number }[]).map((r) => r.id);
    expect(found('orders_search', 'семенова')).toEqual([1]);
    expect(found('orders_search', 'olga@')).toEqual([1]);
    expect(found('orders_search', '79161234567')).toEqual([1]);
    expect(found('orders_search', 'OLD-')).toEqual([1, 2]);
    expect(found('orders_search', 'тверская')).toEqual([3]);
    expect(found('orders_search', 'SBE0000')).toEqual([]);
    expect(found('orders_search_numbers', 'SBE0000')).toEqual([1, 3]);
    sqlite.exec("UPDATE orders SET provider_number = 'SBE000000042' WHERE id = 2");
    sqlite.exec("UPDATE orders SET recipient_city = 'Казань', provider_number = NULL WHERE id = 1");
    expect(found('orders_search_numbers', 'SBE0000')).toEqual([2, 3]);
    expect(found('orders_search', 'уфа')).toEqual([]);
    expect(found('orders_search', 'казань')).toEqual([1]);
    sqlite.exec('DELETE FROM orders WHERE id = 3');
    expect(found('orders_search', 'ежиков')).toEqual([]);
    expect(found('orders_search_numbers', 'SBE0000')).toEqual([2]);
    expect(sqlite.prepare('SELECT deferred FROM orders_search_deferred').all()).toEqual([{ deferred: 0 }]);
    sqlite.close();
  });
});
