import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ErrorCode } from '../../../shared/errors';
import { unexpectedError } from '../errors';
import { mountSmallDisk, unmountSmallDisk } from '../../../test/helpers/small-disk';
import { createSqliteBackupsStore, sqliteDatabaseFiles } from './backups/sqlite';
import { DataFolderUnusableError, openDatabase } from './database';
import { MigrationFailedError } from './migrate';
import { isStorageFailure, isUniqueViolation } from './storage-errors';

/** The error `run` throws, as the engine or the file system raised it. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

/** How the interface answers an unexpected error: its status and body. */
const answerTo = (error: unknown) => {
  const { status, body } = unexpectedError(error);
  return { status, body };
};

/**
 * What a read-only or unusable data folder raises, raised for real (a chmod does not stop root, so none relies on
 * one): a write on a database SQLite could only open read-only, a database file it cannot open, a file written on a
 * read-only mount (root only: a tmpfs, skipped with a line elsewhere). Each is told plainly (507 with the error body),
 * never as a fault of ours (500).
 */
describe('the data folder cannot be written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-storage-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a write on a database opened read-only (SQLITE_READONLY) is a 507; reads go on', () => {
    const file = join(dir, 'shop.db');
    const writable = new Database(file);
    writable.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, number TEXT UNIQUE); INSERT INTO orders (number) VALUES (\'A-1\')');
    writable.close();
    const readOnly = new Database(file, { readonly: true });
    try {
      const error = thrownBy(() => readOnly.prepare("INSERT INTO orders (number) VALUES ('A-2')").run());
      expect((error as { code: string }).code).toBe('SQLITE_READONLY');
      expect(isStorageFailure(error)).toBe(true);
      expect(answerTo(error)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull, message: 'Insufficient storage' } });
      expect(readOnly.prepare('SELECT number FROM orders').all()).toEqual([{ number: 'A-1' }]);
    } finally {
      readOnly.close();
    }
  });

  it('a database file SQLite cannot open (SQLITE_CANTOPEN: a folder where the file should be) is a 507', () => {
    mkdirSync(join(dir, 'not-a-file.db'));
    const error = thrownBy(() => new Database(join(dir, 'not-a-file.db')));
    expect((error as { code: string }).code).toBe('SQLITE_CANTOPEN');
    expect(answerTo(error)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
  });

  it('a database file or backup target whose folder is gone (better-sqlite3 says it with a bare TypeError) is a 507', async () => {
    const gone = join(dir, 'removed-folder', 'shipdesk.db');
    const files = sqliteDatabaseFiles();
    const settling = await files.settle(gone).then(() => null, (error: unknown) => error);
    expect(answerTo(settling)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
    expect((settling as Error).message).toContain('removed-folder');

    const opened = openDatabase({ file: join(dir, 'live.db') });
    try {
      const backingUp = await createSqliteBackupsStore(opened).backupTo(gone).then(() => null, (error: unknown) => error);
      expect(answerTo(backingUp)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
      const copying = await files.copy(join(dir, 'live.db'), gone).then(() => null, (error: unknown) => error);
      expect(answerTo(copying)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
    } finally {
      await opened.close();
    }
  });

  it('a migration that fails at start says which one and why; only a folder that cannot take the data is "unusable"', () => {
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '0001_first.sql'), 'CREATE TABLE kept (n INTEGER);');
    writeFileSync(join(migrations, '0002_broken.sql'), 'CREATE TABLE half (n INTEGER); INSERT INTO nowhere VALUES (1);');
    const file = join(dir, 'migrating.db');
    const failed = thrownBy(() => openDatabase({ file, migrationsDir: migrations }));
    expect(failed).not.toBeInstanceOf(DataFolderUnusableError);
    expect(failed).toBeInstanceOf(MigrationFailedError);
    expect((failed as Error).message).toBe('migration 0002_broken failed: no such table: nowhere; nothing of it was applied');
    const db = new Database(file);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('kept', 'half')").pluck().all()).toEqual(['kept']);
    db.close();

    // a migration that meets a full database (SQLite's own SQLITE_FULL, the page limit standing for the disk) is the folder's
    writeFileSync(join(migrations, '0002_broken.sql'), "PRAGMA max_page_count = 8; CREATE TABLE big (b BLOB); INSERT INTO big VALUES (zeroblob(100000));");
    const full = thrownBy(() => openDatabase({ file, migrationsDir: migrations }));
    expect(full).toBeInstanceOf(DataFolderUnusableError);
    expect((full as Error).message).toContain('(SQLITE_FULL: read-only, full or not permitted)');
  });

  it('a database file gone is that database\'s own: another one of the process refusing a write is not told as gone', async () => {
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    const a = openDatabase({ file: join(dir, 'a', 'shop.db') });
    const b = openDatabase({ file: join(dir, 'b', 'shop.db') });
    try {
      const write = (db: typeof a) => thrownBy(() => db.sqlite.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('k', 'v', 1)").run());
      rmSync(join(dir, 'a'), { recursive: true });
      // the first write after the file went, before any timer looked: refused, and told as a's file gone
      const gone = write(a);
      expect((gone as { code: string }).code).toBe('SQLITE_READONLY');
      expect(answerTo(gone)).toMatchObject({ status: 507, body: { key: 'storage.databaseGone', params: { file: join(dir, 'a', 'shop.db') } } });
      // b refuses a write for a reason of its own (made read-only here): a full/read-only folder, not a's file gone
      b.sqlite.pragma('query_only = ON');
      const refused = write(b);
      expect((refused as { code: string }).code).toBe('SQLITE_READONLY');
      expect(answerTo(refused)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
      expect(answerTo(refused).body).not.toHaveProperty('key');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a constraint the data broke is not a storage failure: a 500 stays a 500', () => {
    const db = new Database(':memory:');
    db.exec("CREATE TABLE t (n TEXT UNIQUE); INSERT INTO t VALUES ('x')");
    const error = thrownBy(() => db.prepare("INSERT INTO t VALUES ('x')").run());
    db.close();
    expect(isUniqueViolation(error)).toBe(true);
    expect(isStorageFailure(error)).toBe(false);
    expect(answerTo(error)).toMatchObject({ status: 500 });
  });

  const disk = mountSmallDisk('the read-only mount case of storage-errors.test.ts', 4);
  it.skipIf(disk === null)('a file written on a read-only mount (EROFS) is a 507, and writes go through once it is writable again', () => {
    try {
      execFileSync('mount', ['-o', 'remount,ro', disk!]);
      const error = thrownBy(() => writeFileSync(join(disk!, 'kept.xlsx'), 'bytes'));
      expect((error as { code: string }).code).toBe('EROFS');
      expect(answerTo(error)).toMatchObject({ status: 507, body: { code: ErrorCode.storageFull } });
      execFileSync('mount', ['-o', 'remount,rw', disk!]);
      expect(() => writeFileSync(join(disk!, 'kept.xlsx'), 'bytes')).not.toThrow();
    } finally {
      unmountSmallDisk(disk!);
    }
  });
});
