import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  return {
    exposed: new Map<string, unknown>(),
    listeners,
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
    ipcRenderer: {
      invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'done' })),
      on: vi.fn((channel: string, fn: (...args: unknown[]) => void) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel)!.add(fn);
      }),
      removeListener: vi.fn((channel: string, fn: (...args: unknown[]) => void) => listeners.get(channel)?.delete(fn)),
    },
  };
});
vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer }));

type Bridge = import('../shared/bridge').ShipdeskBridge;
const bridge = () => electron.exposed.get('shipdesk') as Bridge;

beforeEach(async () => {
  vi.resetModules();
  electron.exposed.clear();
  electron.listeners.clear();
  await import('./preload');
});

describe('what the page can reach through window.shipdesk', () => {
  it('is exactly invoke and onEvent, never ipcRenderer', () => {
    expect([...electron.exposed.keys()]).toEqual(['shipdesk']);
    expect(Object.keys(bridge()).sort()).toEqual(['invoke', 'onEvent']);
    expect(Object.values(bridge())).not.toContain(electron.ipcRenderer);
  });

  it('sends a command over the one command channel and returns its result', async () => {
    await expect(bridge().invoke('orders.list', { page: 1 })).resolves.toEqual({ ok: true, value: 'done' });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('shipdesk:command', 'orders.list', { page: 1 });
  });

  it('hands the page the event payload only, not the IPC event with its sender', () => {
    const listener = vi.fn();
    bridge().onEvent(listener);
    const ipcEvent = { sender: electron.ipcRenderer };
    for (const fn of electron.listeners.get('shipdesk:event')!) fn(ipcEvent, { type: 'orders.changed', orderIds: ['a'] });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ type: 'orders.changed', orderIds: ['a'] });
  });

  it('stops delivering events once the page unsubscribes', () => {
    const stop = bridge().onEvent(vi.fn());
    expect(electron.listeners.get('shipdesk:event')!.size).toBe(1);
    stop();
    expect(electron.listeners.get('shipdesk:event')!.size).toBe(0);
  });
});
