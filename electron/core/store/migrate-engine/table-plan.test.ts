import pg from 'pg';
import { openDatabase } from '../database';
import { createTestDatabase, testPostgresUrl } from '../test-engines';
import { openPostgres } from '../postgres';
import { engineOnlyTables, tablePlan } from './table-plan';

// The migration to PostgreSQL copies every table of the schema or says why not: a table added by a migration and
// not named in table-plan.ts fails here (on SQLite always, on PostgreSQL when SHIPDESK_TEST_POSTGRES is set).

const planned = Object.keys(tablePlan);

function unplanned(tables: string[], engine: 'sqlite' | 'postgres') {
  return tables.filter((t) => !planned.includes(t) && !(t in engineOnlyTables[engine]));
}

describe('the tables the migration to PostgreSQL copies', () => {
  it("every SQLite table is copied or skipped with a reason, and every planned table exists", async () => {
    const opened = openDatabase({ file: ':memory:' });
    try {
      const tables = (opened.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
      // An FTS5 table's shadow tables (orders_search_data, …) go with it.
      const own = tables.filter((t) => !Object.keys(engineOnlyTables.sqlite).some((fts) => t.startsWith(`${fts}_`)));
      expect(unplanned(own, 'sqlite')).toEqual([]);
      expect(planned.filter((t) => !own.includes(t))).toEqual([]);
      for (const [name, plan] of Object.entries(tablePlan)) if ('skip' in plan) expect(plan.skip.length, name).toBeGreaterThan(20);
    } finally {
      await opened.close();
    }
  });

  it.skipIf(!testPostgresUrl)('every PostgreSQL table is copied or skipped with a reason (skipped: SHIPDESK_TEST_POSTGRES is not set)', async () => {
    const database = await createTestDatabase(testPostgresUrl!);
    try {
      await (await openPostgres({ url: database.url, max: 1 })).close();
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'");
      await client.end();
      const tables = rows.map((r) => r.table_name);
      expect(unplanned(tables, 'postgres')).toEqual([]);
      expect(planned.filter((t) => !tables.includes(t))).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
