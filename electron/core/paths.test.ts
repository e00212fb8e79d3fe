import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseFile } from './paths';
import { openDatabase } from './store/database';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the data folder is private to the OS user', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'shipdesk-paths-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a new data folder is made 0700 with the database 0600 in it, WAL included', async () => {
    const dataDir = join(root, 'new', 'ShipDesk');
    const store = openDatabase({ file: databaseFile(dataDir) });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(databaseFile(dataDir))).toBe(0o600);
    expect(mode(`${databaseFile(dataDir)}-wal`)).toBe(0o600);
    await store.close();
  });

  it('an existing folder and database readable by others are tightened when opened', async () => {
    const dataDir = join(root, 'old');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    await openDatabase({ file: databaseFile(dataDir) }).close();
    chmodSync(databaseFile(dataDir), 0o644);
    const store = openDatabase({ file: databaseFile(dataDir) });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(databaseFile(dataDir))).toBe(0o600);
    await store.close();
  });
});
