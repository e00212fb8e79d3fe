import type { AppEvent } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One shape for events from either transport. The core sends `{ type, ...fields }` as the payload
 * (IPC) or as the SSE data of an unnamed event; a named SSE event (`event: orders.changed`) is
 * accepted too, its name becoming the type. Anything without a type is dropped.
 */
export function toAppEvent(name: string | undefined, payload: unknown): AppEvent | undefined {
  if (name && name !== 'message') return isRecord(payload) ? { ...payload, type: name } : { type: name, data: payload };
  if (isRecord(payload) && typeof payload.type === 'string') return payload as AppEvent;
  return undefined;
}

/** SSE data is JSON by our convention; anything else is passed on as text. */
export function parseEventData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
