import { useSessionStore } from '../stores/session-store';
import { setTransport } from '../transport/current';
import { startTransport } from '../transport/start-transport';
import { routeAppEvent, refreshAfterReconnect } from './app-events';

/** Chooses the transport, records whether the window may talk to the core, and wires push events. */
export function boot(): void {
  const session = useSessionStore.getState();
  const start = startTransport(() => {
    useSessionStore.getState().setAccess('token-rejected');
    transport?.dispose();
  });
  const transport = start.transport;
  setTransport(transport);
  if (start.status === 'needs-sign-in') {
    session.setAccess('needs-token', 'http');
    return;
  }
  session.setAccess('ready', transport.kind);

  let previous = useSessionStore.getState().connection;
  transport.onConnectionChange((state) => {
    useSessionStore.getState().setConnection(state);
    if (state === 'connected' && previous === 'reconnecting') refreshAfterReconnect();
    previous = state;
  });
  transport.onEvent(routeAppEvent);
}
