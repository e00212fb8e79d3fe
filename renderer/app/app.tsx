import { MantineProvider } from '@mantine/core';
import { useSessionStore } from '../stores/session-store';
import { AppLayout } from './app-layout';
import { TokenScreen } from './token-screen';
import { theme } from './theme';

/** The root: theme, then either the token screen (browser mode without access) or the app. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <AccessGate />
    </MantineProvider>
  );
}

function AccessGate() {
  const access = useSessionStore((s) => s.access);
  if (access === 'needs-token' || access === 'token-rejected') return <TokenScreen rejected={access === 'token-rejected'} />;
  if (access === 'starting') return null;
  return <AppLayout />;
}
