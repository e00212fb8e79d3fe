import { spawn } from 'node:child_process';
import { said } from '../../../../shared/messages';
import { badRequest } from '../../errors';
import type { OpenedPostgres } from '../postgres';
import type { BackupsStore } from './backups-store';

/** pg_dump's custom format: one file, compressed, restored with pg_restore. */
const dumpArgs = (file: string, url: string) => ['--format=custom', '--no-owner', '--file', file, '--dbname', url];

/** Runs pg_dump; its password goes by environment, not on the command line others can list. */
function pgDump(file: string, url: string): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', dumpArgs(file, u.toString()), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? badRequest(said('backup.noPgDump'))
          : error,
      ),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pg_dump failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** PostgreSQL's backups: a consistent snapshot by pg_dump (one transaction) while the app keeps working. */
export function createPostgresBackupsStore({ url }: OpenedPostgres): BackupsStore {
  return {
    backupTo: (file) => pgDump(file, url),
  };
}
