import type { AppEvent } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One shape for events from either transport. A named SSE event (`event: orders.changed`) takes its
 * type from the name; an unnamed one, or an IPC payload, from its own `type` field.
 */
export function toAppEvent(name: string | undefined, payload: unknown): AppEvent | undefined {
  if (name && name !== 'message') return { type: name, data: payload };
  if (isRecord(payload) && typeof payload.type === 'string') {
    return { type: payload.type, data: 'data' in payload ? payload.data : payload };
  }
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
