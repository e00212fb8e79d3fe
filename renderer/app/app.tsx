import { MantineProvider } from '@mantine/core';
import { useSessionStore } from '../stores/session-store';
import { SignInPage } from '../pages/sign-in/sign-in-page';
import { AppLayout } from './app-layout';
import { SessionLinkPrompt } from './session-link-prompt';
import { theme } from './theme';

/** The root: theme, then either the sign-in screen (browser mode without a session) or the app. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <AccessGate />
    </MantineProvider>
  );
}

function AccessGate() {
  const access = useSessionStore((s) => s.access);
  if (access === 'needs-sign-in' || access === 'session-ended') return <SignInPage />;
  if (access === 'starting') return null;
  return (
    <>
      <AppLayout />
      <SessionLinkPrompt />
    </>
  );
}
