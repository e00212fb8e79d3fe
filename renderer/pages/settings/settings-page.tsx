import { Alert, Box, Button, Center, Loader, Stack, Tabs, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { IconAlert, IconInfo } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import type { PlainMessageKey } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { useNavigationStore } from '../../stores/navigation-store';
import { useSessionStore } from '../../stores/session-store';
import { useSettingsStore } from '../../stores/settings-store';
import { getTransport } from '../../transport/current';
import { BackupsSection } from './backups-section';
import { CompanySection } from './company-section';
import { DatabaseSection } from './database-section';
import { ConnectionsSection } from './connections-section';
import { LanSection } from './lan-section';
import { LocalApiSection } from './local-api-section';
import { PreferencesSection } from './preferences-section';
import { PrintSection } from './print-section';
import { SenderProfilesSection } from './sender-profiles-section';
import { UsersSection } from './users-section';

const sections: readonly { key: string; label: PlainMessageKey; component: () => React.ReactNode }[] = [
  { key: 'company', label: 'settings.tab.company', component: CompanySection },
  { key: 'senders', label: 'settings.tab.senders', component: SenderProfilesSection },
  { key: 'connections', label: 'settings.tab.connections', component: ConnectionsSection },
  { key: 'api', label: 'settings.tab.api', component: LocalApiSection },
  { key: 'users', label: 'access.users.title', component: UsersSection },
  { key: 'lan', label: 'access.lan.title', component: LanSection },
  { key: 'preferences', label: 'settings.tab.preferences', component: PreferencesSection },
  { key: 'print', label: 'print.settings.title', component: PrintSection },
  { key: 'data', label: 'settings.tab.data', component: BackupsSection },
  { key: 'database', label: 'database.title', component: DatabaseSection },
];

/** The settings are the owner's: a packer is told so and none of the owner's commands is called. */
export function SettingsPage() {
  const role = useSessionStore((s) => s.identity?.role);
  if (role === 'packer') return <OwnerOnlyNotice />;
  if (role === undefined)
    return (
      <Center h={200}>
        <Loader size="sm" />
      </Center>
    );
  return <OwnerSettings />;
}

function OwnerOnlyNotice() {
  const t = useT();
  return (
    <Box p="md" data-testid="settings-page">
      <Title order={2} fz="lg" mb="md">
        {t('settings.title')}
      </Title>
      <Alert color="gray" variant="light" icon={<IconInfo size={18} />} title={t('access.denied.title')} maw={640} data-testid="settings-owner-only">
        {t('access.denied.body')}
      </Alert>
    </Box>
  );
}

/** The settings page: a list of sections on the left (arrow keys move between them), the chosen one on the right. */
function OwnerSettings() {
  const t = useT();
  const status = useSettingsStore((s) => s.status);
  const error = useSettingsStore((s) => s.error);
  const focus = useNavigationStore((s) => s.settingsFocus);
  const [tab, setTab] = useState<string>(focus?.tab ?? 'company');
  // A way here from elsewhere ("Открыть настройки" beside a refused login) names the section, even while the page is open.
  useEffect(() => {
    if (focus && sections.some((s) => s.key === focus.tab)) setTab(focus.tab);
  }, [focus]);

  useEffect(() => {
    void useSettingsStore.getState().load();
    // Connections changed elsewhere (another window, the API) show up here too.
    return getTransport().onEvent((event) => {
      if (event.type.startsWith('provider') && useSettingsStore.getState().status === 'ready') void useSettingsStore.getState().refreshConnections();
    });
  }, []);

  return (
    <Box p="md" data-testid="settings-page">
      <Title order={2} fz="lg" mb="md">
        {t('settings.title')}
      </Title>
      {status === 'error' && error ? (
        <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={t('settings.loadError')} data-testid="settings-load-error">
          <Stack gap="xs" align="flex-start">
            {errorTitle(error, t)} {errorHint(error, t)}
            <Button size="xs" variant="default" onClick={() => void useSettingsStore.getState().load()}>
              {t('settings.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : status !== 'ready' ? (
        <Center h={200}>
          <Loader size="sm" />
        </Center>
      ) : (
        <Tabs value={tab} onChange={(v) => v && setTab(v)} orientation="vertical" variant="pills" keepMounted={false} aria-label={t('settings.sections')} styles={{ tab: { justifyContent: 'flex-start' }, tabLabel: { textAlign: 'left' } }}>
          <Tabs.List mr="lg" style={{ flex: '0 0 200px' }}>
            {sections.map((s) => (
              <Tabs.Tab key={s.key} value={s.key} data-testid={`settings-tab-${s.key}`}>
                {t(s.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {sections.map(({ key, component: Section }) => (
            <Tabs.Panel key={key} value={key} style={{ minWidth: 0 }}>
              <Box maw={980}>
                <Section />
              </Box>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Box>
  );
}
