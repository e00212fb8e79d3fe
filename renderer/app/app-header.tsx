import { Burger, Group, SegmentedControl, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { ActivityBar } from '../components/activity/activity-bar';
import { IconTruck } from '../components/icons';
import { useLocaleStore } from '../i18n/locale-store';
import type { Language } from '../i18n/types';
import { useT } from '../i18n/use-t';
import { ConnectionIndicator } from './connection-indicator';
import { IdentityMenu } from './identity-menu';

interface AppHeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

/** Product name on the left; background work (outbox, stuck orders, status refresh), connection state, who is signed in and language on the right. */
export function AppHeader({ navOpened, onToggleNav }: AppHeaderProps) {
  const t = useT();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="md" size="sm" aria-label={t('nav.main')} />
        <ThemeIcon variant="filled" size={26} radius="sm" aria-hidden>
          <IconTruck size={17} />
        </ThemeIcon>
        <Text fw={700} fz="md" component="h1" m={0} style={{ letterSpacing: '-0.01em' }}>
          {t('app.name')}
        </Text>
      </Group>
      <Group gap="md" wrap="nowrap">
        <ActivityBar />
        <ConnectionIndicator />
        <IdentityMenu />
        <LanguageSwitch />
      </Group>
    </Group>
  );
}

function LanguageSwitch() {
  const t = useT();
  const language = useLocaleStore((s) => s.language);
  const setLanguage = useLocaleStore((s) => s.setLanguage);
  return (
    <Tooltip label={t('header.language')} openDelay={400}>
      <SegmentedControl
        size="xs"
        value={language}
        onChange={(value) => setLanguage(value as Language)}
        aria-label={t('header.language')}
        data-testid="language-switch"
        data={[
          { value: 'ru', label: 'RU' },
          { value: 'en', label: 'EN' },
        ]}
      />
    </Tooltip>
  );
}
