import type { ShipdeskBridge } from '../../shared/bridge';
import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { shellPrintCommands, type PrinterInfo } from '../../shared/printing';
import { toAppEvent } from './app-event';
import { asResult, ClientErrorCode, clientFailure } from './client-errors';
import type { Transport } from './types';

/** The bridge the preload exposed on window.shipdesk, if this window runs inside Electron. */
export function findBridge(scope: object = globalThis): ShipdeskBridge | undefined {
  const candidate = (scope as { shipdesk?: Partial<ShipdeskBridge> }).shipdesk;
  return candidate && typeof candidate.invoke === 'function' && typeof candidate.onEvent === 'function'
    ? (candidate as ShipdeskBridge)
    : undefined;
}

/** Electron: commands and events go through the preload bridge. */
export function createIpcTransport(bridge: ShipdeskBridge): Transport {
  const invoke = <N extends CommandName>(name: N, input: CommandInput<N>): Promise<Result<CommandOutput<N>>> => call<CommandOutput<N>>(name, input ?? {});

  return {
    kind: 'ipc',
    invoke,
    onEvent(listener) {
      return bridge.onEvent((payload) => {
        const event = toAppEvent(undefined, payload);
        if (event) listener(event);
      });
    },
    // IPC lives as long as the window; there is nothing to lose.
    onConnectionChange(listener) {
      listener('connected');
      return () => {};
    },
    printer: {
      list: () => call<PrinterInfo[]>(shellPrintCommands.printers, {}),
      print: (job) => call<{ printed: true }>(shellPrintCommands.print, job),
    },
    dispose() {},
  };

  /** One call over the bridge, a core command or the shell's printing; never throws. */
  async function call<T>(name: string, input: unknown): Promise<Result<T>> {
    try {
      return asResult<T>(await bridge.invoke(name, input)) ?? clientFailure(ClientErrorCode.badResponse, `${name}: the bridge returned no Result`);
    } catch (error) {
      return clientFailure(ClientErrorCode.bridge, `${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
