import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, fakeEvent, type FakeElectron } from '../test/helpers/fake-electron';

// main.ts runs on import, so every test gets a fresh fake Electron, a fresh fake core and a fresh import.
const current = vi.hoisted(() => ({
  electron: undefined as unknown as FakeElectron,
  createApp: undefined as unknown as (opts: unknown) => Promise<unknown>,
  localApi: { start: undefined as unknown as (app: unknown, opts: { port: number; windowTransport: boolean }) => Promise<{ close: () => Promise<void> }> },
  lanDoor: { start: undefined as unknown as (app: unknown, opts: { webRoot?: string }) => Promise<{ close: () => Promise<void> }> },
}));

vi.mock('electron', () => {
  const forward = (key: keyof FakeElectron['module']) => ({ get: () => current.electron.module[key], enumerable: true });
  return Object.defineProperties({}, {
    app: forward('app'),
    BrowserWindow: forward('BrowserWindow'),
    ipcMain: forward('ipcMain'),
    protocol: forward('protocol'),
    session: forward('session'),
    shell: forward('shell'),
    net: forward('net'),
    dialog: forward('dialog'),
    safeStorage: forward('safeStorage'),
  });
});
vi.mock('./core/app', () => ({ createApp: (opts: unknown) => current.createApp(opts) }));
vi.mock('./local-api', async (original) => ({
  ...(await original<typeof import('./local-api')>()),
  startLocalApi: (app: unknown, opts: { port: number; windowTransport: boolean }) => current.localApi.start(app, opts),
}));

vi.mock('./core/lan/lan-door', () => ({ startLanDoor: (app: unknown, opts: { webRoot?: string }) => current.lanDoor.start(app, opts) }));

const OUR_PAGE = 'app://shipdesk/index.html';
/** The owner of the shop's company, as the core's desktopContext() answers it. */
const SHOP = { role: 'owner', companyId: 7, sessionId: null, userId: null, address: null };

function fakeCore() {
  const listeners = new Set<(event: { type: string; [k: string]: unknown }) => void>();
  return {
    dispatch: vi.fn(async (name: string, ctx: typeof SHOP, input: unknown) => ({ ok: true, value: { name, ctx, input } })),
    desktopContext: vi.fn(async () => SHOP),
    events: {
      subscribe: vi.fn((listener: (event: { type: string }) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      }),
    },
    close: vi.fn(async () => {}),
    services: { imports: { prewarm: vi.fn() } },
    /** The core's file log: the shell writes its own faults there too. */
    log: { info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: vi.fn() },
    publish: (event: { type: string; [k: string]: unknown }) => listeners.forEach((l) => l(event)),
  };
}

let appPath: string;
let electron: FakeElectron;
let core: ReturnType<typeof fakeCore>;
let createApp: ReturnType<typeof vi.fn>;
let localApi: { close: ReturnType<typeof vi.fn> };
let startLocalApi: ReturnType<typeof vi.fn>;
let lanDoor: { close: ReturnType<typeof vi.fn> };
let startLanDoor: ReturnType<typeof vi.fn>;

beforeEach(() => {
  appPath = mkdtempSync(path.join(tmpdir(), 'shipdesk-shell-'));
  mkdirSync(path.join(appPath, 'dist', 'assets'), { recursive: true });
  writeFileSync(path.join(appPath, 'dist', 'index.html'), '<!doctype html><title>ShipDesk</title>');
  writeFileSync(path.join(appPath, 'dist', 'assets', 'app.js'), 'console.log("hi")');
  writeFileSync(path.join(appPath, 'secret.txt'), 'not for the page');
  core = fakeCore();
  createApp = vi.fn(async () => core);
  current.createApp = createApp as never;
  localApi = { close: vi.fn(async () => {}) };
  startLocalApi = vi.fn(async () => localApi);
  current.localApi.start = startLocalApi as never;
  lanDoor = { close: vi.fn(async () => {}) };
  startLanDoor = vi.fn(async () => lanDoor);
  current.lanDoor.start = startLanDoor as never;
});

afterEach(() => {
  rmSync(appPath, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** Starts the shell the way Electron would: load main, then signal ready. */
async function launch(options: { singleInstance?: boolean; ready?: boolean } = {}) {
  electron = createFakeElectron({ appPath, singleInstance: options.singleInstance });
  current.electron = electron;
  vi.resetModules();
  await import('./main');
  if (options.ready === false) return;
  electron.ready();
  if (options.singleInstance === false) return;
  await vi.waitFor(() => expect(electron.windows).toHaveLength(1));
}

const mainWindow = () => electron.windows[0]!;

describe('the ShipDesk window is locked down', () => {
  it('runs the page isolated and sandboxed, with no Node and no webviews', async () => {
    await launch();
    const prefs = mainWindow().options.webPreferences!;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    expect(electron.module.app.enableSandbox).toHaveBeenCalled();
  });

  it('loads the app from app://shipdesk/, never from file://', async () => {
    await launch({ ready: false });
    // Schemes can only be made privileged before Electron is ready.
    expect(electron.module.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    const [[schemes]] = electron.module.protocol.registerSchemesAsPrivileged.mock.calls as [[{ privileges: object }[]]];
    expect(schemes[0]!.privileges).not.toHaveProperty('bypassCSP');
    electron.ready();
    await vi.waitFor(() => expect(electron.windows).toHaveLength(1));
    expect(mainWindow().loadURL).toHaveBeenCalledWith('app://shipdesk/index.html');
    expect(electron.module.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });

  it('serves the built renderer from dist/ with the content security policy', async () => {
    await launch();
    const page = await electron.request('app://shipdesk/index.html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ShipDesk</title>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:",
    );
    const script = await electron.request('app://shipdesk/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await electron.request('app://shipdesk/assets/missing.js')).status).toBe(404);
  });

  it('refuses requests that try to climb out of dist/', async () => {
    await launch();
    for (const url of ['app://shipdesk/..%2fsecret.txt', 'app://shipdesk/%2e%2e%2fsecret.txt', 'app://shipdesk/..%5csecret.txt']) {
      expect((await electron.request(url)).status, url).toBe(403);
    }
    expect(electron.module.net.fetch).not.toHaveBeenCalledWith(expect.stringContaining('secret.txt'));
  });

  it('puts the content security policy on every response of the session, replacing any other', async () => {
    await launch();
    const [[onHeaders]] = electron.module.session.defaultSession.webRequest.onHeadersReceived.mock.calls as [[
      (details: object, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void,
    ]];
    const callback = vi.fn();
    onHeaders({ responseHeaders: { 'content-security-policy': ['default-src *'], 'x-a': ['1'] } }, callback);
    const headers = callback.mock.calls[0]![0].responseHeaders;
    expect(headers['Content-Security-Policy']).toEqual([expect.stringContaining("script-src 'self'")]);
    expect(headers).not.toHaveProperty('content-security-policy');
    expect(headers['x-a']).toEqual(['1']);
  });

  it('blocks navigating or redirecting the window anywhere outside the app', async () => {
    await launch();
    const contents = mainWindow().webContents;
    expect(contents.navigate('https://evil.example/phish')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('app://other/index.html')).toBe(true);
    expect(contents.navigate('https://evil.example/', 'will-redirect')).toBe(true);
    expect(contents.navigate('app://shipdesk/orders')).toBe(false);
    expect(contents.navigate('app://shipdesk/index.html', 'will-redirect')).toBe(false);
  });

  it('never opens a new app window; an https link goes to the system browser instead', async () => {
    await launch();
    const open = mainWindow().webContents.windowOpenHandler!;
    expect(open({ url: 'https://www.cdek.ru/track?order=1' })).toEqual({ action: 'deny' });
    expect(electron.module.shell.openExternal).toHaveBeenCalledWith('https://www.cdek.ru/track?order=1');
    for (const url of ['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://server/share', 'not a url']) {
      expect(open({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.module.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('refuses to attach webviews', async () => {
    await launch();
    const event = fakeEvent();
    mainWindow().webContents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });

  it('guards every web contents, not only the main window', async () => {
    await launch();
    const { FakeWebContents } = await import('../test/helpers/fake-electron');
    const other = new FakeWebContents();
    electron.app.emit('web-contents-created', fakeEvent(), other);
    expect(other.navigate('https://evil.example/')).toBe(true);
    expect(other.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });

  it('denies every permission the page might ask for (camera, location, notifications…)', async () => {
    await launch();
    const ses = electron.module.session.defaultSession;
    const [[onRequest]] = ses.setPermissionRequestHandler.mock.calls as [[(wc: unknown, p: string, cb: (ok: boolean) => void) => void]];
    const [[onCheck]] = ses.setPermissionCheckHandler.mock.calls as [[(wc: unknown, p: string) => boolean]];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem']) {
      const callback = vi.fn();
      onRequest(null, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(onCheck(null, permission)).toBe(false);
    }
  });
});

describe('commands from the window', () => {
  it('runs a command from our page as the owner of the shop’s own company', async () => {
    await launch();
    expect(electron.module.ipcMain.handle).toHaveBeenCalledTimes(1);
    const result = await electron.invoke('shipdesk:command', OUR_PAGE, 'orders.list', { page: 1 });
    expect(core.dispatch).toHaveBeenCalledWith('orders.list', SHOP, { page: 1 });
    expect(result).toEqual({ ok: true, value: { name: 'orders.list', ctx: SHOP, input: { page: 1 } } });
  });

  it('refuses a command from any other page with 040101, without touching the data', async () => {
    await launch();
    for (const frame of ['https://evil.example/', 'file:///tmp/x.html', 'app://other/index.html', 'app://shipdesk.evil.com/', 'about:blank', null]) {
      const result = await electron.invoke('shipdesk:command', frame, 'orders.cancel', { id: '1' });
      expect(result, String(frame)).toEqual({ ok: false, error: { code: '040101', message: 'Unauthorized' } });
    }
    expect(core.dispatch).not.toHaveBeenCalled();
  });

  it('refuses a command whose name is not a string', async () => {
    await launch();
    for (const name of [42, undefined, null, { name: 'orders.list' }, '']) {
      const result = (await electron.invoke('shipdesk:command', OUR_PAGE, name, {})) as { ok: boolean; error: { code: string } };
      expect(result.ok).toBe(false);
      expect(result.error.code).toBe('040002');
    }
    expect(core.dispatch).not.toHaveBeenCalled();
  });

  it('answers a crash in the core with an internal error, not a stack trace', async () => {
    await launch();
    core.dispatch.mockRejectedValueOnce(new Error('SQLITE_CORRUPT at /home/shop/secret/path'));
    const result = await electron.invoke('shipdesk:command', OUR_PAGE, 'orders.list', {});
    expect(result).toEqual({ ok: false, error: { code: '050001', message: 'Internal error' } });
    expect(core.log.error).toHaveBeenCalledWith('command orders.list failed', expect.any(Error)); // in the log file, for support
  });

  it('pushes the core’s events to the open window, and not to a closed one', async () => {
    await launch();
    const event = { type: 'orders.changed', companyId: 7, orderIds: ['a'] };
    core.publish(event);
    expect(mainWindow().webContents.send).toHaveBeenCalledWith('shipdesk:event', event);
    mainWindow().close();
    core.publish({ type: 'outbox.state', companyId: 7, pending: 0, waitingForConnection: false });
    expect(mainWindow().webContents.send).toHaveBeenCalledTimes(1);
  });

  it('does not push another company’s events (an API client’s orders) to the window', async () => {
    await launch();
    core.publish({ type: 'orders.changed', companyId: 8, orderIds: ['b'] });
    core.publish({ type: 'outbox.state', companyId: 8, pending: 3, waitingForConnection: true });
    expect(mainWindow().webContents.send).not.toHaveBeenCalled();
    core.publish({ type: 'drafts.changed', companyId: 7 });
    expect(mainWindow().webContents.send).toHaveBeenCalledWith('shipdesk:event', { type: 'drafts.changed', companyId: 7 });
  });
});

describe('starting and quitting', () => {
  it('opens the core on the user’s data folder with the repo resources in development', async () => {
    await launch();
    expect(createApp).toHaveBeenCalledWith({
      dataDir: path.join(appPath, 'user-data'),
      resourcesDir: path.join(appPath, 'resources'),
      startWorkers: true, // the desktop app is what sends queued orders out
      version: '0.1.0', // the app's, for the log's start line
      secretBox: expect.objectContaining({ encrypt: expect.any(Function), decrypt: expect.any(Function) }),
    });
  });

  it('seals connection credentials with the OS keychain (safeStorage)', async () => {
    await launch();
    const { secretBox } = createApp.mock.calls[0][0] as { secretBox: import('./core/providers/connections/secret-box').SecretBox };
    expect(secretBox.describe?.()).toEqual({ kind: 'os-keychain', location: null });
    expect(secretBox.decrypt(secretBox.encrypt('client secret'))).toBe('client secret');
  });

  it('uses the Electron build of SQLite when it was built', async () => {
    const binding = path.join(appPath, 'build', 'electron-native', 'better_sqlite3.node');
    mkdirSync(path.dirname(binding), { recursive: true });
    writeFileSync(binding, '');
    await launch();
    expect(createApp).toHaveBeenCalledWith(expect.objectContaining({ nativeBinding: binding }));
  });

  it('shows the window once it has drawn, then starts an import\'s reading worker ahead', async () => {
    await launch();
    expect(mainWindow().show).not.toHaveBeenCalled();
    mainWindow().emit('ready-to-show');
    expect(mainWindow().show).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(core.services.imports.prewarm).toHaveBeenCalledOnce());
  });

  it('a second ShipDesk quits at once and leaves the first one in charge', async () => {
    await launch({ singleInstance: false });
    await new Promise((r) => setTimeout(r, 10));
    expect(electron.app.quitCompleted).toBe(true);
    expect(createApp).not.toHaveBeenCalled();
    expect(electron.windows).toHaveLength(0);
  });

  it('starting ShipDesk again brings the open window forward', async () => {
    await launch();
    mainWindow().minimized = true;
    electron.app.emit('second-instance', fakeEvent(), [], '/');
    expect(mainWindow().restore).toHaveBeenCalled();
    expect(mainWindow().focus).toHaveBeenCalled();
  });

  it('quitting waits until the database has closed, so no write is lost', async () => {
    await launch();
    let finishClose: () => void = () => {};
    core.close.mockImplementation(() => new Promise<void>((resolve) => (finishClose = resolve)));
    electron.module.app.quit();
    await vi.waitFor(() => expect(core.close).toHaveBeenCalledTimes(1));
    expect(electron.app.quitCompleted).toBe(false);
    // A second quit request (e.g. the user clicks again) neither closes twice nor quits early.
    electron.module.app.quit();
    expect(core.close).toHaveBeenCalledTimes(1);
    // Commands that arrive meanwhile are not run against a closing database.
    const late = (await electron.invoke('shipdesk:command', OUR_PAGE, 'orders.create', {})) as { ok: boolean };
    expect(late.ok).toBe(false);
    expect(core.dispatch).not.toHaveBeenCalled();
    finishClose();
    await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
  });

  it('serves the local interface for the shop\'s other programs on 127.0.0.1:4318, and stops it before the database closes', async () => {
    await launch();
    await vi.waitFor(() => expect(startLocalApi).toHaveBeenCalledWith(core, { port: 4318, windowTransport: false }));
    core.close.mockImplementation(async () => {
      expect(localApi.close).toHaveBeenCalledTimes(1);
    });
    electron.module.app.quit();
    await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
    expect(core.close).toHaveBeenCalledTimes(1);
  });

  it('a busy API port leaves the window working', async () => {
    startLocalApi.mockRejectedValueOnce(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }));
    await launch();
    await vi.waitFor(() => expect(core.log.error).toHaveBeenCalledWith(expect.stringMatching(/could not listen on port 4318/), expect.any(Error)));
    const answer = (await electron.invoke('shipdesk:command', OUR_PAGE, 'orders.list', {})) as { ok: boolean };
    expect(answer.ok).toBe(true);
  });

  it('opens the LAN door (it listens only when the owner turned LAN mode on) with the built UI, and closes it before the database', async () => {
    await launch();
    await vi.waitFor(() => expect(startLanDoor).toHaveBeenCalledWith(core, { webRoot: path.join(appPath, 'dist') }));
    core.close.mockImplementation(async () => {
      expect(lanDoor.close).toHaveBeenCalledTimes(1);
    });
    electron.module.app.quit();
    await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
    expect(core.close).toHaveBeenCalledTimes(1);
  });

  it('LAN mode failing to start leaves the window working', async () => {
    startLanDoor.mockRejectedValueOnce(new Error('certificate could not be written'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await launch();
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringMatching(/LAN mode could not start/), expect.any(Error)));
    const answer = (await electron.invoke('shipdesk:command', OUR_PAGE, 'orders.list', {})) as { ok: boolean };
    expect(answer.ok).toBe(true);
  });

  it('still quits when closing the database fails', async () => {
    await launch();
    core.close.mockRejectedValueOnce(new Error('disk gone'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    electron.module.app.quit();
    await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
  });

  it('closing the last window quits the app (except on macOS)', async () => {
    await launch();
    electron.app.emit('window-all-closed');
    if (process.platform === 'darwin') expect(electron.module.app.quit).not.toHaveBeenCalled();
    else await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
  });

  it('tells the shop why when the database cannot be opened, then quits', async () => {
    createApp.mockRejectedValueOnce(new Error('database is locked'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await launch({ ready: false });
    electron.ready();
    await vi.waitFor(() => expect(electron.module.dialog.showErrorBox).toHaveBeenCalledWith('ShipDesk could not start', 'database is locked'));
    await vi.waitFor(() => expect(electron.app.quitCompleted).toBe(true));
    expect(electron.windows).toHaveLength(0);
  });
});
