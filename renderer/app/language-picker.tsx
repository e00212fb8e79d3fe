import { Group, SegmentedControl } from '@mantine/core';
import { useLocaleStore } from '../i18n/locale-store';
import type { Language } from '../i18n/types';
import { useT } from '../i18n/use-t';

/** The language switch for screens shown without the header. */
export function LanguagePicker() {
  const t = useT();
  const language = useLocaleStore((s) => s.language);
  const setLanguage = useLocaleStore((s) => s.setLanguage);
  return (
    <Group justify="flex-end">
      <SegmentedControl
        size="xs"
        value={language}
        onChange={(v) => setLanguage(v as Language)}
        aria-label={t('header.language')}
        data={[
          { value: 'ru', label: 'Русский' },
          { value: 'en', label: 'English' },
        ]}
      />
    </Group>
  );
}
