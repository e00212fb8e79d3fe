import { startBrowserMode } from './browser-mode';
import { DataFolderUnusableError } from './core/store/database';
import { DatabaseTooNewError } from './core/store/migrate';
import { parseServeArgs, serveUsage } from './serve-args';
import { describeDatabase } from './core/settings/database-choice';

/** `npm run serve`: ShipDesk without Electron, on 127.0.0.1. */
async function main() {
  let options;
  try {
    options = parseServeArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${serveUsage}`);
    process.exit(2);
  }
  let running;
  try {
    running = await startBrowserMode(options);
  } catch (error) {
    const known =
      error instanceof DatabaseTooNewError || error instanceof DataFolderUnusableError || (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ||
      (error instanceof Error && (error.message.startsWith('Cannot open the PostgreSQL database') || error.message.includes('the database chosen in Settings')));
    console.error(known ? `ShipDesk could not start: ${(error as Error).message}` : error);
    process.exit(1);
  }
  // What was opened: --database, else the owner's choice in Settings → Database, else the data folder's file.
  console.log(`ShipDesk is running in browser mode (data: ${describeDatabase(running.app.databaseInUse)})`);
  if (running.hasUi) {
    console.log(`Open ${running.uiUrl}  (signs this browser in as the shop's owner; keep the link to yourself)`);
    running.app.services.imports.prewarm(); // as the desktop app once its window shows: an import's reading worker started ahead
  }
  else console.log('The web UI is not built (run `npx vite build`); the local API is up.');
  if (running.newDesktopToken) console.log(`API token of this shop: ${running.newDesktopToken}`);
  console.log(`Local API: ${running.base}/v1  (header Authorization: <token>)`);
  const lan = await running.app.services.lan.state();
  for (const listener of lan.listeners) {
    console.log(listener.problem ? `Other computers: cannot listen on ${listener.address}:${listener.port} (${listener.detail})` : `Other computers: ${listener.url}`);
  }
  if (lan.listeners.length) console.log(`  certificate SHA-256: ${lan.certificate?.fingerprint256}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.exit(1); // a second Ctrl+C: the user insists
    }
    stopping = true;
    console.log(`${signal}: finishing work in progress and closing the database…`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
