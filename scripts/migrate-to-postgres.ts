// `npm run migrate-to-postgres -- --from <data-dir> --to postgres://…`: a shop's SQLite data into an empty PostgreSQL
// database (electron/core/store/migrate-engine/). Run through tsx, from the sources.
import { runMigrateCli } from '../electron/core/store/migrate-engine/cli';

process.exitCode = await runMigrateCli(process.argv.slice(2));
