import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseFile } from '../../paths';
import { openDatabase } from '../database';
import { closedPort } from '../../../../test/helpers/closed-port';
import { runMigrateCli } from './cli';

// What `npm run migrate-to-postgres` says when it cannot start; the copy itself is test/api/migrate-to-postgres.test.ts.

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runMigrateCli(argv, { write: (s: string) => ((out += s), true) }, { write: (s: string) => ((err += s), true) });
  return { code, out, err };
}

describe('npm run migrate-to-postgres, refusing to start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-migrate-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without both places, or with a --to that is not PostgreSQL, prints the usage and exits 1', async () => {
    expect(await run('--from', dir)).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/^both --from and --to are needed\nUsage: npm run migrate-to-postgres/) });
    expect(await run('--from', dir, '--to', 'mysql://x/y')).toMatchObject({ code: 1, err: expect.stringMatching(/^--to must be a PostgreSQL URL/) });
  });

  it('a folder without a database, or a server that is not there, is said in one line', async () => {
    expect(await run('--from', dir, '--to', 'postgres://u@127.0.0.1:1/db')).toEqual({ code: 1, out: '', err: `Not migrated: There is no ShipDesk database in ${dir} (expected ${databaseFile(dir)}).\n` });
    await openDatabase({ file: databaseFile(dir) }).close();
    const port = await closedPort();
    const away = await run('--from', dir, '--to', `postgres://u:hidden@127.0.0.1:${port}/db`);
    expect(away.code).toBe(1);
    expect(away.err).toMatch(new RegExp(`^Not migrated: Cannot connect to postgres://u@127\\.0\\.0\\.1:${port}/db: .*ECONNREFUSED`));
    expect(away.err).not.toContain('hidden');
  });
});
