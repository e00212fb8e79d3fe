import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uploadInParts } from '../../../shared/backup/upload-in-parts';
import { BACKUP_UPLOAD_PART_BYTES, type BackupUploadState } from '../../../shared/contract/settings';
import type { Result } from '../../../shared/result';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { createApp } from '../app';
import { silentLogger } from '../logger';

describe('backups', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const value = async (name: string, input: unknown = {}): Promise<any> => {
    const result = await call(name, input);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const create = (clientNumber: string) => env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber)));
  const ordersIn = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT client_number FROM orders ORDER BY id').all() as { client_number: string }[]).map((r) => r.client_number);
    } finally {
      db.close();
    }
  };

  it('a backup made while the app works is a whole database with everything written so far', async () => {
    await create('BK-1');
    const backup = await value('backup.now');
    expect(backup.name).toMatch(/^shipdesk-\d{8}-\d{6}\.db$/);
    expect(backup.path).toBe(join(env.dataDir, 'backups', backup.name));
    expect(ordersIn(backup.path)).toEqual(['BK-1']);
    const second = await value('backup.now'); // same second: a name of its own
    expect(second.name).not.toBe(backup.name);
    expect((await value('backup.list')).map((b: any) => b.name)).toEqual(expect.arrayContaining([backup.name, second.name]));
  });

  it('a restore is checked, staged, and put in place at the next start with the old database kept', async () => {
    await create('BEFORE');
    const backup = await value('backup.now');
    await create('AFTER');
    const staged = await value('backup.restore', { id: backup.id });
    expect(staged).toMatchObject({ restartRequired: true, staged: join(env.dataDir, 'restore-pending.db') });
    expect((await value('settings.get')).pendingRestore).toBe(staged.staged);
    await env.app.close();

    const restarted = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger });
    try {
      const ctx = await restarted.desktopContext();
      const list = await restarted.services.orders.list(ctx, { limit: 10, offset: 0 });
      expect(list.rows.map((r) => r.clientNumber)).toEqual(['BEFORE']);
      expect(existsSync(join(env.dataDir, 'restore-pending.db'))).toBe(false);
      const kept = readdirSync(join(env.dataDir, 'backups')).filter((n) => n.startsWith('pre-restore-'));
      expect(kept).toHaveLength(1);
      expect(ordersIn(join(env.dataDir, 'backups', kept[0]))).toEqual(['BEFORE', 'AFTER']);
    } finally {
      await restarted.close();
    }
  });

  const upload = (file: string, name = 'picked.db') => {
    const bytes = readFileSync(file);
    const source = { size: bytes.length, read: async (start: number, end: number) => bytes.subarray(start, end).toString('base64') };
    return uploadInParts(source, name, (part) => call('backup.upload', part) as Promise<Result<BackupUploadState>>);
  };

  it('a file the owner picks is copied in, checked, listed and restored by its id', async () => {
    await create('PICKED');
    const elsewhere = join(env.dataDir, 'from-a-usb-stick.db');
    copyFileSync((await value('backup.now')).path, elsewhere);
    const uploaded = await upload(elsewhere);
    expect(uploaded).toMatchObject({ ok: true, value: { id: expect.stringMatching(/^uploaded-\d{8}-\d{6}\.db$/), kind: 'uploaded' } });
    if (!uploaded.ok) return;
    const { id } = uploaded.value as { id: string };
    expect((await value('backup.list')).map((b: any) => b.id)).toContain(id);
    expect(await value('backup.restore', { id })).toMatchObject({ from: id, restartRequired: true });
  });

  it('a file larger than one part arrives in parts, in order: a repeated or skipped part is refused and changes nothing', async () => {
    await create('BIG');
    const big = join(env.dataDir, 'big.db');
    copyFileSync((await value('backup.now')).path, big);
    const raw = new Database(big);
    raw.exec('CREATE TABLE ballast (b BLOB); INSERT INTO ballast VALUES (randomblob(9000000))'); // past two 4 MiB parts
    raw.close();
    const bytes = readFileSync(big);
    expect(bytes.length).toBeGreaterThan(2 * BACKUP_UPLOAD_PART_BYTES);
    const seen: number[] = [];
    const source = { size: bytes.length, read: async (start: number, end: number) => bytes.subarray(start, end).toString('base64') };
    const sent = await uploadInParts(source, 'big.db', async (part) => {
      const answer = (await call('backup.upload', part)) as Result<BackupUploadState>;
      if (part.offset === BACKUP_UPLOAD_PART_BYTES && answer.ok) {
        // the same part again, and one from too far on: both refused, the upload goes on where it was
        expect(await call('backup.upload', { ...part, uploadId: answer.value.uploadId })).toMatchObject({ ok: false, error: { description: expect.stringMatching(/starts at byte 4194304, but 8388608 bytes/) } });
        expect(await call('backup.upload', { ...part, uploadId: answer.value.uploadId, offset: 3 * BACKUP_UPLOAD_PART_BYTES })).toMatchObject({ ok: false });
      }
      return answer;
    }, (n) => seen.push(n));
    expect(sent).toMatchObject({ ok: true, value: { kind: 'uploaded', size: bytes.length } });
    expect(seen.at(-1)).toBe(bytes.length);
    expect(seen.length).toBe(Math.ceil(bytes.length / BACKUP_UPLOAD_PART_BYTES));
    if (sent.ok) expect(readFileSync(sent.value.path).equals(bytes)).toBe(true);
    expect(readdirSync(join(env.dataDir, 'backups')).filter((n) => n.startsWith('.incoming'))).toEqual([]);
    expect(await call('backup.upload', { uploadId: '7b0c7a4e-1f1e-4c55-9a55-3d6f0a1b2c3d', offset: 0, base64: '', done: true })).toMatchObject({ ok: false, error: { code: '040016', description: expect.stringMatching(/no upload .* in progress/) } });
  });

  it('refuses uploads that are not ShipDesk databases or come from a newer version, and keeps none of them', async () => {
    const junk = join(env.dataDir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text that is long enough to look like a file');
    expect(await upload(junk, 'junk.db')).toMatchObject({ ok: false, error: { code: '040000', description: 'junk.db cannot be restored: it is not a SQLite database' } });

    const foreign = join(env.dataDir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE t (x)').close();
    expect(await upload(foreign)).toMatchObject({ ok: false, error: { description: 'picked.db cannot be restored: it is not a ShipDesk database (no schema_migrations)' } });

    const newer = join(env.dataDir, 'newer.db');
    copyFileSync((await value('backup.now')).path, newer);
    const raw = new Database(newer);
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)").run();
    raw.close();
    expect(await upload(newer)).toMatchObject({ ok: false, error: { description: expect.stringMatching(/^picked\.db cannot be restored: it was written by a newer ShipDesk/) } });
    expect((await value('backup.list')).map((b: any) => b.kind)).toEqual(['backup']);
    expect(existsSync(join(env.dataDir, 'restore-pending.db'))).toBe(false);
  });

  it('restores only a backup of the list by its id: never a path, and the refusal tells nothing of other files', async () => {
    const backup = await value('backup.now');
    for (const file of [backup.path, join(env.dataDir, 'shipdesk.db'), '../shipdesk.db', '/etc/passwd', 'backups/' + backup.id]) {
      const refused = await call('backup.restore', { id: file });
      expect(refused, file).toMatchObject({ ok: false, error: { code: '040002' } });
      expect(JSON.stringify(refused)).not.toContain(env.dataDir);
    }
    const missing = await call('backup.restore', { id: 'shipdesk-19990101-000000.db' });
    expect(missing).toMatchObject({ ok: false, error: { code: '040016', message: 'Not found', description: 'There is no backup shipdesk-19990101-000000.db; pick one from backup.list' } });
    expect(await call('backup.restore', { file: backup.path })).toMatchObject({ ok: false, error: { code: '040002' } });
    expect(existsSync(join(env.dataDir, 'restore-pending.db'))).toBe(false);
  });

  it('a FIFO named like a backup is refused at once, like a missing one, instead of hanging the app', async () => {
    const fifo = join(env.dataDir, 'backups', 'shipdesk-20260101-000000.db');
    await value('backup.now'); // the folder exists
    execFileSync('mkfifo', [fifo]);
    expect(await call('backup.restore', { id: 'shipdesk-20260101-000000.db' })).toMatchObject({ ok: false, error: { code: '040016' } });
    expect((await value('backup.list')).map((b: any) => b.id)).not.toContain('shipdesk-20260101-000000.db');
  });

  it('keeps the database, its backups and the secrets key readable by this OS user only', async () => {
    await value('connections.list');
    await env.app.services.connections.create({ providerKey: 'cdek', name: 'Склад', testMode: true, credentials: { clientId: 'id-123', clientSecret: 'secret-123' } });
    const backup = await value('backup.now');
    const uploaded = await upload(backup.path);
    if (!uploaded.ok) throw new Error('upload failed');
    await value('backup.restore', { id: backup.id });
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(env.dataDir)).toBe(0o700);
    expect(mode(join(env.dataDir, 'backups'))).toBe(0o700);
    for (const file of ['shipdesk.db', 'shipdesk.db-wal', 'secrets.key', 'restore-pending.db', `backups/${backup.id}`, `backups/${(uploaded.value as { id: string }).id}`]) {
      expect(mode(join(env.dataDir, file)), file).toBe(0o600);
    }
  });

  it('a staged restore can be called off', async () => {
    const backup = await value('backup.now');
    await value('backup.restore', { id: backup.id });
    expect(await value('backup.cancelRestore')).toEqual({ canceled: true });
    expect((await value('settings.get')).pendingRestore).toBeNull();
  });
});
