import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { useMemo } from 'react';
import { useT } from '../i18n/use-t';
import { useSessionStore } from '../stores/session-store';
import { SignInPage } from '../pages/sign-in/sign-in-page';
import { AppLayout } from './app-layout';
import { SessionLinkPrompt } from './session-link-prompt';
import { theme } from './theme';

/** The root: theme, then either the sign-in screen (browser mode without a session) or the app. */
export function App() {
  const t = useT();
  // Mantine's own words (the password eye's label) in the app's language.
  const localized = useMemo(
    () => mergeThemeOverrides(theme, { components: { PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': t('app.passwordVisibility') } } } } }),
    [t],
  );
  return (
    <MantineProvider theme={localized} defaultColorScheme="auto">
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
