import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, testPostgresUrl, twoCompanies, type TestStores } from '../test-engines';

/** The companies a backup file holds, read back the way each engine restores it. */
const companiesIn: Record<string, (file: string) => Promise<string[]>> = {
  async sqlite(file) {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT name FROM companies ORDER BY id').all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  },
  async postgres(file) {
    const restored = await createTestDatabase(testPostgresUrl!);
    try {
      execFileSync('pg_restore', ['--no-owner', '--dbname', restored.url, file], { stdio: ['ignore', 'ignore', 'pipe'] });
      const client = new pg.Client({ connectionString: restored.url });
      await client.connect();
      const { rows } = await client.query<{ name: string }>('SELECT name FROM companies ORDER BY id');
      await client.end();
      return rows.map((r) => r.name);
    } finally {
      await restored.drop();
    }
  },
};

describe.each(testEngines)('the backups store ($name)', ({ name, open }) => {
  let opened: TestStores | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-backup-'));
  });
  afterEach(async () => {
    await opened?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a copy of the database that restores with what it held', async () => {
    opened = await open();
    await twoCompanies(opened.stores);
    const file = join(dir, 'backup');
    await opened.stores.backups.backupTo(file);
    await opened.stores.accounts.createCompany({ name: 'After the backup', apiToken: 'later', isDesktop: false, createdAt: 2 });
    expect(await companiesIn[name](file)).toEqual(['My shop', 'Other']);
  });

  it.runIf(name === 'postgres')('says plainly that pg_dump is needed when it is not installed', async () => {
    opened = await open();
    const path = process.env.PATH;
    process.env.PATH = dir; // an empty folder: no pg_dump on it
    try {
      await expect(opened.stores.backups.backupTo(join(dir, 'backup'))).rejects.toMatchObject({
        status: 400,
        body: { description: expect.stringMatching(/needs pg_dump, which is not installed/), key: 'backup.noPgDump' },
      });
    } finally {
      process.env.PATH = path;
    }
  });
});
