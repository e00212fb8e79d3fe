import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import type { AppEvent } from '../../shared/bridge';
import type { PrinterInfo, PrintJob } from '../../shared/printing';
import type { Result } from '../../shared/result';

/** A push event from the core, e.g. `{ type: 'orders.changed', orderIds }`; the same shape over IPC and SSE. */
export type { AppEvent };

/** Whether pushed events can currently arrive; commands may still work or fail on their own. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

/** How the window reaches the core: Electron IPC or the browser-mode HTTP transport. Both behave the same. */
export interface Transport {
  readonly kind: 'ipc' | 'http';
  /** Runs one command of the contract. Never throws: failures come back as `{ ok: false, error }`. */
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<Result<CommandOutput<N>>>;
  /** Subscribes to push events; returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** Subscribes to the event channel's state; the listener is called at once with the current state. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** Desktop only: the system's printers and printing a PDF straight to one (browser mode opens the PDF instead). */
  printer?: {
    list(): Promise<Result<PrinterInfo[]>>;
    print(job: PrintJob): Promise<Result<{ printed: true }>>;
  };
  /** Stops background work (the event stream). */
  dispose(): void;
  /**
   * Browser mode only: switches the window to a session (the secret auth.signIn answered, or a link the
   * user accepted), or to none after signing out. The window (IPC) is always the owner and has none.
   */
  useSession?(secret: string | null): void;
}
