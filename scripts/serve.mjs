// `npm run serve`: browser mode (electron/serve.ts) from its bundle, rebuilt first when the sources are
// newer. Arguments are serve's own (`--port`, `--data-dir`, `--token`, …).
import { pathToFileURL } from 'node:url';
import { ensureServeBundle } from './serve-bundle.mjs';

const file = await ensureServeBundle();
process.setSourceMapsEnabled(true); // errors name the source files and lines, not the bundle's
await import(pathToFileURL(file).href);
