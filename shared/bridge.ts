import type { Result } from './result';

/** A push event of the core (orders changed, outbox state, …) as the window receives it. */
export type AppEvent = { type: string; [k: string]: unknown };

/** What the Electron preload exposes as `window.shipdesk`: exactly these two functions, nothing else. */
export interface ShipdeskBridge {
  /** Runs one command of the table (e.g. 'orders.create') for the shop's own company. */
  invoke(name: string, input: unknown): Promise<Result<unknown>>;
  /** Listens to push events; returns the function that stops listening. */
  onEvent(listener: (e: AppEvent) => void): () => void;
}
