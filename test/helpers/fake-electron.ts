import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

// A hand-written stand-in for the parts of `electron` the shell uses, so main.ts runs in plain Node.
// It records what the shell asked for and lets a test play the user's or the page's part.

export interface FakeElectronOptions {
  appPath: string;
  userData?: string;
  isPackaged?: boolean;
  singleInstance?: boolean;
}

/** A DOM-like event: records whether the shell prevented the default action. */
export function fakeEvent<T extends object>(fields: T = {} as T) {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

export class FakeWebContents extends EventEmitter {
  send = vi.fn();
  windowOpenHandler: WindowOpenHandler | null = null;
  setWindowOpenHandler(handler: WindowOpenHandler) {
    this.windowOpenHandler = handler;
  }
  /** Plays a navigation of the page (link click, location change); returns true when the shell blocked it. */
  navigate(url: string, kind: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const event = fakeEvent({ url });
    this.emit(kind, event, url);
    return event.defaultPrevented;
  }
}

export function createFakeElectron(options: FakeElectronOptions) {
  let markReady: () => void = () => {};
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));
  const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response> | Response>();
  const windows: FakeBrowserWindow[] = [];

  const app = Object.assign(new EventEmitter(), {
    isPackaged: options.isPackaged ?? false,
    /** True once a quit went through without the shell holding it back. */
    quitCompleted: false,
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => options.singleInstance ?? true),
    whenReady: vi.fn(() => readyPromise),
    getAppPath: vi.fn(() => options.appPath),
    getVersion: vi.fn(() => '0.1.0'), // what Electron reads from package.json
    getPath: vi.fn((name: string) => (name === 'userData' ? (options.userData ?? `${options.appPath}/user-data`) : `/fake/${name}`)),
    // Like Electron: before-quit first, and the quit only happens when nobody prevented it.
    quit: vi.fn(() => {
      const event = fakeEvent();
      app.emit('before-quit', event);
      if (!event.defaultPrevented) app.quitCompleted = true;
    }),
    exit: vi.fn(),
  });

  class FakeBrowserWindow extends EventEmitter {
    webContents = new FakeWebContents();
    destroyed = false;
    minimized = false;
    loadURL = vi.fn(async (_url: string) => {});
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn(() => (this.minimized = false));
    constructor(public options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
      super();
      windows.push(this);
      app.emit('web-contents-created', fakeEvent(), this.webContents); // as Electron does for every new contents
    }
    isDestroyed = () => this.destroyed;
    isMinimized = () => this.minimized;
    /** The user closes the window. */
    close() {
      this.destroyed = true;
      this.emit('closed');
    }
  }

  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
  };

  const module = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: vi.fn((channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        ipcHandlers.set(channel, handler);
      }),
    },
    protocol: {
      registerSchemesAsPrivileged: vi.fn(),
      handle: vi.fn((scheme: string, handler: (request: Request) => Promise<Response> | Response) => {
        protocolHandlers.set(scheme, handler);
      }),
    },
    session,
    shell: { openExternal: vi.fn(async (_url: string) => {}) },
    // Reads file: URLs from disk, like Electron's net.fetch does for the protocol handler.
    net: {
      fetch: vi.fn(async (url: string) => new Response(await readFile(fileURLToPath(url)))),
    },
    dialog: { showErrorBox: vi.fn() },
    // A keychain that is there and reversible (not secure: the shell's tests only check it is used).
    safeStorage: {
      isEncryptionAvailable: vi.fn(() => true),
      getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
      encryptString: vi.fn((text: string) => Buffer.from(text, 'utf8').reverse()),
      decryptString: vi.fn((encrypted: Buffer) => Buffer.from(encrypted).reverse().toString('utf8')),
    },
  };

  return {
    module,
    app,
    windows,
    /** Electron finished starting: the shell's whenReady continuation runs. */
    ready: markReady,
    /** Plays the page calling ipcRenderer.invoke from a frame at `frameUrl` (null: the frame is gone). */
    async invoke(channel: string, frameUrl: string | null, ...args: unknown[]) {
      const handler = ipcHandlers.get(channel);
      if (!handler) throw new Error(`nothing handles ${channel}`);
      return handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args);
    },
    /** Plays Chromium requesting a URL of a custom scheme. */
    async request(url: string) {
      const handler = protocolHandlers.get(new URL(url).protocol.replace(/:$/, ''));
      if (!handler) throw new Error(`nothing handles ${url}`);
      return handler(new Request(url));
    },
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
