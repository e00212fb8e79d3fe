import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApp } from './core/app';
import type { Caller } from './core/auth/caller';
import { subscribeCompany } from './core/events';
import { COMMAND_CHANNEL, EVENT_CHANNEL } from './channels';
import {
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  CLOSING_ERROR,
  INTERNAL_ERROR,
  START_URL,
  externalHttpsUrl,
  isAppUrl,
  refuseCommand,
  resolveAppFile,
  secureWebPreferences,
  securityHeaders,
  withCsp,
} from './security';
import { startLanDoor } from './core/lan/lan-door';
import { desktopApiPort, startLocalApi } from './local-api';
import { createSafeStorageSecretBox } from './safe-storage-box';
import { shellPaths } from './shell-paths';
import { createShellPrinting, isShellPrintCommand } from './printing';

// The Electron shell: windows, security, IPC registration. Every rule lives in the core or in security.ts.

type Core = Awaited<ReturnType<typeof createApp>>;

// Privileged schemes must be registered before 'ready'; enableSandbox covers every renderer we ever create.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
app.enableSandbox();

const here = path.dirname(fileURLToPath(import.meta.url)); // dist-electron/ once bundled
const windows = new Set<BrowserWindow>();
const printing = createShellPrinting({ BrowserWindow });
let core: Promise<Core> | null = null;
let started = false;
let stopEvents = (): void => {};
let stopLocalApi = async (): Promise<void> => {};
let stopLanDoor = async (): Promise<void> => {};
let quitting: 'no' | 'closing' | 'closed' = 'no';

if (!app.requestSingleInstanceLock()) {
  app.quit(); // the shop already has ShipDesk open; its 'second-instance' handler brings it forward
} else {
  app.on('second-instance', focusWindow);
  app.on('web-contents-created', (_event, contents) => guardContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (started && windows.size === 0) openWindow();
  });
  app.on('before-quit', (event) => {
    if (quitting === 'closed') return;
    event.preventDefault(); // hold the quit until the database has written everything
    if (quitting === 'closing') return;
    quitting = 'closing';
    void closeCore().finally(() => {
      quitting = 'closed';
      app.quit();
    });
  });
  app.whenReady().then(start).catch(failToStart);
}

async function start(): Promise<void> {
  const paths = shellPaths({
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    userData: app.getPath('userData'),
    exists: existsSync,
  });
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => callback({ responseHeaders: withCsp(details.responseHeaders) }));
  const { rendererDir, ...coreOptions } = paths;
  protocol.handle(APP_SCHEME, (request) => serveRenderer(rendererDir, request));

  // The desktop app is the one that sends orders out, so the outbox runs here (tests leave it off).
  // Connection credentials are sealed by the OS keychain (safeStorage), not only by the data folder's key file.
  core = createApp({ ...coreOptions, version: app.getVersion(), startWorkers: true, secretBox: createSafeStorageSecretBox(safeStorage, coreOptions.dataDir) });
  const opened = await core;
  // The shell's own faults go to the same files in <data>/logs as the core's (Settings → Save logs for support).
  opened.log.info('the desktop app started', { electron: process.versions.electron, platform: process.platform });
  app.on('render-process-gone', (_event, _contents, details) => opened.log.error('a window crashed', undefined, { reason: details.reason }));
  // The window is the shop's owner: it runs commands as the owner and hears its own company's events only.
  const owner = await opened.desktopContext();
  stopEvents = subscribeCompany(opened.events, owner.companyId, (event) => {
    for (const win of windows) if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  ipcMain.handle(COMMAND_CHANNEL, (event, name: unknown, input: unknown) => runCommand(opened, owner, event, name, input));
  started = true;
  openWindow();
  // The shop's other programs reach the same core over HTTP on 127.0.0.1; a busy port costs only that.
  try {
    stopLocalApi = (await startLocalApi(opened, { port: desktopApiPort(), windowTransport: false })).close;
  } catch (error) {
    opened.log.error(`the local API could not listen on port ${desktopApiPort()}; the window works without it`, error);
  }
  // Packers' PCs reach the same UI over HTTPS when the owner turned LAN mode on (off by default: nothing listens).
  try {
    stopLanDoor = (await startLanDoor(opened, { webRoot: rendererDir })).close;
  } catch (error) {
    console.error('ShipDesk: LAN mode could not start; this window works without it', error);
  }
}

async function runCommand(opened: Core, owner: Caller, event: IpcMainInvokeEvent, name: unknown, input: unknown) {
  const refusal = refuseCommand(event.senderFrame?.url, name);
  if (refusal) return refusal;
  if (quitting !== 'no') return CLOSING_ERROR; // no new writes once the database is being closed
  try {
    // Printing to a printer is the shell's own work; everything else is the core's.
    if (isShellPrintCommand(name)) return await printing.run(name, event.sender, input);
    return await opened.dispatch(name as string, owner, input);
  } catch (error) {
    opened.log.error(`command ${String(name)} failed`, error);
    return INTERNAL_ERROR;
  }
}

async function serveRenderer(rendererDir: string, request: Request): Promise<Response> {
  const resolved = resolveAppFile(rendererDir, request.url);
  if (!resolved.ok) return new Response(null, { status: resolved.status });
  try {
    const file = await net.fetch(pathToFileURL(resolved.file).toString());
    if (!file.ok) return new Response(null, { status: 404 });
    return new Response(file.body, { status: 200, headers: securityHeaders(resolved.file) });
  } catch {
    return new Response(null, { status: 404 });
  }
}

function openWindow(): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    title: 'ShipDesk',
    show: false, // shown on ready-to-show so the shop never sees a blank white frame
    webPreferences: secureWebPreferences(path.join(here, 'preload.cjs')),
  });
  windows.add(win);
  win.on('closed', () => windows.delete(win));
  win.once('ready-to-show', () => {
    win.show();
    // The first import of the day need not wait for its reading worker to start (import/worker-client.ts).
    void core?.then((opened) => opened.services.imports.prewarm());
  });
  win.loadURL(START_URL).catch((error: unknown) => void core?.then((opened) => opened.log.error('the window could not load', error)));
}

function guardContents(contents: WebContents): void {
  const stayInApp = (event: { url: string; preventDefault(): void }) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalHttpsUrl(url); // e.g. a tracking link: the system browser, never a new app window
    if (external) shell.openExternal(external).catch(() => {});
    return { action: 'deny' };
  });
}

function focusWindow(): void {
  const [win] = windows;
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

async function closeCore(): Promise<void> {
  stopEvents();
  await stopLanDoor().catch((error: unknown) => console.error('ShipDesk: stopping LAN mode failed', error));
  await stopLocalApi().catch((error: unknown) => console.error('ShipDesk: stopping the local API failed', error));
  if (!core) return;
  try {
    await (await core).close();
  } catch (error) {
    console.error('ShipDesk: closing the database failed', error);
  }
}

function failToStart(error: unknown): void {
  console.error('ShipDesk could not start', error);
  dialog.showErrorBox('ShipDesk could not start', error instanceof Error ? error.message : String(error));
  app.quit();
}
