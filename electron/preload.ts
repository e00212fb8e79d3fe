import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { AppEvent, ShipdeskBridge } from '../shared/bridge';
import type { Result } from '../shared/result';
import { COMMAND_CHANNEL, EVENT_CHANNEL } from './channels';

// Sandboxed preload: the page gets two functions, never ipcRenderer, so it can reach no channel but ours.

const bridge: ShipdeskBridge = {
  invoke(name: string, input: unknown): Promise<Result<unknown>> {
    return ipcRenderer.invoke(COMMAND_CHANNEL, name, input);
  },
  onEvent(listener: (e: AppEvent) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a listener function');
    // The IPC event object carries `sender` (ipcRenderer itself): only the payload crosses to the page.
    const forward = (_event: IpcRendererEvent, payload: AppEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('shipdesk', bridge);
