import { useEffect, useRef } from 'react';
import { useSessionStore } from '../stores/session-store';
import { getTransport } from '../transport/current';
import type { AppEvent } from '../transport/types';

/**
 * Calls `listener` for each push event of the given types while the component is mounted, and once
 * with `{ type: 'reconnected' }` after the event stream comes back (events may have been missed).
 * The latest listener is always used, so it may read fresh props without re-subscribing.
 */
export function usePushEvent(types: readonly string[], listener: (event: AppEvent) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  const key = types.join(' ');

  useEffect(() => {
    const wanted = new Set(key.split(' '));
    const stopEvents = getTransport().onEvent((event) => {
      if (wanted.has(event.type)) latest.current(event);
    });
    let previous = useSessionStore.getState().connection;
    const stopSession = useSessionStore.subscribe((s) => {
      if (s.connection === 'connected' && previous === 'reconnecting') latest.current({ type: 'reconnected' });
      previous = s.connection;
    });
    return () => {
      stopEvents();
      stopSession();
    };
  }, [key]);
}
