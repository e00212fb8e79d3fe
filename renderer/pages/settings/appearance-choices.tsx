import { SegmentedControl, SimpleGrid, Stack, Text, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useT } from '../../i18n/use-t';
import { useAppearanceStore, type FirstScreen } from '../../stores/appearance-store';

/** This window's look: light, dark or as the system; and the screen it opens on. Kept in this window's storage. */
export function AppearanceChoices() {
  const t = useT();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const firstScreen = useAppearanceStore((s) => s.firstScreen);
  const setFirstScreen = useAppearanceStore((s) => s.setFirstScreen);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack gap={4}>
        <Text fz="sm" fw={500} id="appearance-theme-label">
          {t('appearance.theme')}
        </Text>
        <SegmentedControl
          value={colorScheme}
          onChange={(value) => setColorScheme(value as MantineColorScheme)}
          aria-labelledby="appearance-theme-label"
          data={[
            { value: 'light', label: t('appearance.theme.light') },
            { value: 'dark', label: t('appearance.theme.dark') },
            { value: 'auto', label: t('appearance.theme.auto') },
          ]}
          data-testid="appearance-theme"
        />
      </Stack>
      <Stack gap={4}>
        <Text fz="sm" fw={500} id="appearance-first-label">
          {t('appearance.firstScreen')}
        </Text>
        <SegmentedControl
          value={firstScreen}
          onChange={(value) => setFirstScreen(value as FirstScreen)}
          aria-labelledby="appearance-first-label"
          data={[
            { value: 'auto', label: t('appearance.firstScreen.auto') },
            { value: 'today', label: t('nav.today') },
            { value: 'orders', label: t('nav.orders') },
          ]}
          data-testid="appearance-first-screen"
        />
      </Stack>
    </SimpleGrid>
  );
}
