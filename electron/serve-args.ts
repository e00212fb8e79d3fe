import { parseArgs } from 'node:util';
import { z } from 'zod';
import { apiLoginSettingsSchema, type ApiLoginSettings } from '../shared/contract/api-login';
import type { OutboxDeps } from './core/outbox/outbox';
import { FIRST_RETRY_MS, jitteredBackoffFrom } from './core/outbox/backoff';
import { defaultDataDir } from './core/paths';
import { isPostgresUrl } from './core/store/postgres';

export interface ServeOptions {
  port: number;
  dataDir: string;
  tokens: string[];
  webRoot?: string;
  /** `--login name:password`: the API login (POST /login) of the last --token's company. */
  login?: ApiLoginSettings;
  /** `--database postgres://…`: the data on that PostgreSQL server instead of the SQLite file in dataDir. */
  database?: string;
  /** `--lease-seconds`, `--retry-seconds`: the outbox's lease on its jobs and its first wait after a failed call. */
  outbox?: Pick<OutboxDeps, 'leaseMs' | 'backoff'>;
}

export const defaultPort = 4318;

export const serveUsage = `Usage: npm run serve -- [--port <p>] [--data-dir <dir>] [--database <postgres://…>] [--token <t>]... [--login <name>:<password>] [--web-root <dir>]
  --port      port on 127.0.0.1 (default ${defaultPort}; 0 picks a free one)
  --data-dir  where the database lives (default: the app-data folder)
  --database  a PostgreSQL server's URL (postgres://user:password@host/db): the data lives there instead
  --token     API token of a client company, created if missing (repeatable)
  --login     API login and password of the last --token's company (the shop's own without --token), for POST /login
  --web-root  folder of the built web UI (default: dist/)
  --lease-seconds  how long a registration job stays this instance's while it runs (default 60, renewed as it goes):
              with several instances on one PostgreSQL, a stopped one's jobs go to another this long after
  --retry-seconds  the first wait after a failed call to a delivery service (default ${FIRST_RETRY_MS / 1000}; doubles each time)`;

/** Reads serve's command line; throws a one-line message on bad arguments. */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      token: { type: 'string', multiple: true },
      login: { type: 'string' },
      'web-root': { type: 'string' },
      database: { type: 'string' },
      'lease-seconds': { type: 'string' },
      'retry-seconds': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = values.port === undefined ? defaultPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a whole number from 0 to 65535, not ${values.port}`);
  const tokens = values.token ?? [];
  for (const token of tokens) {
    if (!/^[\x21-\x7e]{8,200}$/.test(token)) throw new Error('--token must be 8 to 200 visible ASCII characters without spaces');
  }
  if (values.database !== undefined && !isPostgresUrl(values.database)) throw new Error('--database must be a PostgreSQL URL (postgres://user:password@host:port/database)');
  const leaseMs = secondsOf('--lease-seconds', values['lease-seconds'], 1);
  const firstRetryMs = secondsOf('--retry-seconds', values['retry-seconds'], 0.01);
  const outbox = {
    ...(leaseMs !== undefined ? { leaseMs } : {}),
    ...(firstRetryMs !== undefined ? { backoff: jitteredBackoffFrom(firstRetryMs) } : {}),
  };
  return {
    ...(leaseMs !== undefined || firstRetryMs !== undefined ? { outbox } : {}),
    port, dataDir: values['data-dir'] ?? defaultDataDir(env), tokens, webRoot: values['web-root'], ...(values.login !== undefined ? { login: loginOf(values.login) } : {}),
    ...(values.database !== undefined ? { database: values.database } : {}),
  };
}

/** A number of seconds from `least` to a day, in ms; undefined when not given. */
function secondsOf(flag: string, value: string | undefined, least: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < least || seconds > 86_400) throw new Error(`${flag} must be a number of seconds from ${least} to 86400, not ${value}`);
  return Math.round(seconds * 1000);
}

/** `name:password` (the password may hold colons). */
function loginOf(value: string): ApiLoginSettings {
  const colon = value.indexOf(':');
  const parsed = apiLoginSettingsSchema.safeParse({ login: colon < 0 ? value : value.slice(0, colon), password: colon < 0 ? '' : value.slice(colon + 1) });
  if (!parsed.success) throw new Error(`--login must be <name>:<password>: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
  return parsed.data;
}
