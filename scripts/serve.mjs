// `npm run serve`: browser mode (electron/serve.ts) from its bundle, rebuilt first when the sources are
// newer, with the web UI built first when it is missing or stale (unless --web-root names another).
// Arguments are serve's own (`--port`, `--data-dir`, `--token`, …).
import { pathToFileURL } from 'node:url';
import { ensureServeBundle } from './serve-bundle.mjs';
import { ensureWebUi } from './web-ui.mjs';

if (!process.argv.slice(2).some((arg) => arg === '--web-root' || arg.startsWith('--web-root='))) await ensureWebUi('serve');
const file = await ensureServeBundle();
process.setSourceMapsEnabled(true); // errors name the source files and lines, not the bundle's
await import(pathToFileURL(file).href);
