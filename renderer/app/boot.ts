import { useSessionStore } from '../stores/session-store';
import { setTransport } from '../transport/current';
import { startTransport } from '../transport/start-transport';
import { routeAppEvent, refreshAfterReconnect } from './app-events';

/**
 * Chooses the transport, records whether the window may talk to the core (or must sign in first), asks who
 * it is signed in as, and wires push events. A link with another session is only offered (the UI asks).
 */
export function boot(): void {
  const start = startTransport(() => {
    // The session ended (signed out elsewhere, revoked by the owner, expired): sign in again.
    useSessionStore.getState().setAccess('session-ended');
    start.transport.dispose();
  });
  const session = useSessionStore.getState();
  setTransport(start.transport);
  if (start.status === 'needs-sign-in') {
    session.setAccess('needs-sign-in', 'http');
    return;
  }
  const transport = start.transport;
  session.setOfferedSession(start.offeredSession);
  session.setAccess('ready', transport.kind);
  void session.loadIdentity();

  let previous = useSessionStore.getState().connection;
  transport.onConnectionChange((state) => {
    useSessionStore.getState().setConnection(state);
    if (state === 'connected' && previous === 'reconnecting') refreshAfterReconnect();
    previous = state;
  });
  transport.onEvent(routeAppEvent);
}
