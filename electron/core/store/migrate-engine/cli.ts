import { parseArgs } from 'node:util';
import { describePostgres, isPostgresUrl } from '../postgres';
import { migrateToPostgres, type CopyProgress } from './copy';
import { counted, MigrationRefused } from './refusal';

export const migrateUsage = `Usage: npm run migrate-to-postgres -- --from <data-dir> --to <postgres://user:password@host:port/database>
  --from  the shop's data folder (its shipdesk.db is opened read-only; close ShipDesk first)
  --to    an empty PostgreSQL database (or one ShipDesk created and nothing was written to)`;

/** `npm run migrate-to-postgres`: progress on stderr, one summary line on stdout; answers the exit code (0 done and checked, 1 not). */
export async function runMigrateCli(argv: string[], out: Pick<NodeJS.WriteStream, 'write'> = process.stdout, err: Pick<NodeJS.WriteStream, 'write'> = process.stderr): Promise<number> {
  let from: string;
  let to: string;
  try {
    const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true, allowPositionals: false });
    if (!values.from || !values.to) throw new Error('both --from and --to are needed');
    if (!isPostgresUrl(values.to)) throw new Error('--to must be a PostgreSQL URL (postgres://…)');
    ({ from, to } = values as { from: string; to: string });
  } catch (error) {
    err.write(`${(error as Error).message}\n${migrateUsage}\n`);
    return 1;
  }
  const started = Date.now();
  let shown = '';
  const onProgress = ({ table, done, total }: CopyProgress) => {
    const percent = total ? Math.floor((done / total) * 100) : 100;
    const line = `${table}: ${done}/${counted(total, 'row', 'rows')} (${percent}%)`;
    // Each table's start, every tenth of it and its end: a few lines per table.
    const step = `${table}:${Math.floor(percent / 10)}`;
    if (step !== shown || done === total) err.write(`${line}\n`);
    shown = step;
  };
  try {
    const summary = await migrateToPostgres({ from, to, onProgress });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const { compared, differing } = summary.sample;
    if (differing.length) {
      out.write(
        `Copied ${counted(summary.rows, 'row', 'rows')} of ${counted(summary.tables.length, 'table', 'tables')} to ${describePostgres(to)}, but ${differing.length} of ${counted(compared, 'sampled order', 'sampled orders')} read differently ` +
          `(ids ${differing.slice(0, 10).join(', ')}): do not use it; empty the database before trying again.\n`,
      );
      return 1;
    }
    const upgraded = summary.upgradedFrom === null ? '' : ` (it held an empty database of an older ShipDesk, schema version ${summary.upgradedFrom}: brought up to this version first)`;
    out.write(`Migrated ${counted(summary.rows, 'row', 'rows')} of ${counted(summary.tables.length, 'table', 'tables')} to ${describePostgres(to)}${upgraded} in ${seconds} s: row counts equal, ${counted(compared, 'sampled order', 'sampled orders')} read the same on both.\n`);
    return 0;
  } catch (error) {
    // The copy is one transaction: whatever stopped it, the target holds nothing of it.
    const refused = error instanceof MigrationRefused || (error instanceof Error && error.message.startsWith('Cannot connect'));
    err.write(`Not migrated: ${error instanceof Error ? error.message : String(error)}${refused ? '' : ' (the copy is one transaction: none of it was kept, and a new run may start over)'}\n`);
    return 1;
  }
}
