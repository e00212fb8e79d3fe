import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { fieldMessage } from '../../i18n/error-messages';
import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../shared/schemas/settings';
import { detectLanguage } from '../../i18n/translate';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import { AppearanceChoices } from './appearance-choices';
import { SectionCard } from './section-card';
import { checkPreferences, refusalErrors, type PreferencesForm } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

type PreferenceLanguage = Settings['preferences']['language'];

/** Status refresh interval, the stuck threshold, and the language (the same setting as the header's switch). */
export function PreferencesSection() {
  const t = useT();
  const prefs = useSettingsStore((s) => s.settings?.preferences);
  const [form, setForm] = useState<PreferencesForm>(() => ({
    refreshIntervalMinutes: String(prefs?.refreshIntervalMinutes ?? 30),
    stuckThresholdDays: String(prefs?.stuckThresholdDays ?? 5),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const change = (key: keyof PreferencesForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setSaved(false);
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPreferences(form);
    if (!checked.ok) return setErrors(checked.errors);
    setBusy(true);
    const result = await useSettingsStore.getState().savePreferences(checked.value);
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error, { 'preferences.refreshIntervalMinutes': 'refreshIntervalMinutes', 'preferences.stuckThresholdDays': 'stuckThresholdDays' }));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    setSaved(true);
    toastSuccess((tr) => tr('settings.saved'));
  };

  return (
    <SectionCard title={t('settings.prefs.title')} testId="preferences-section">
      <Stack gap="lg">
        <form onSubmit={submit} noValidate>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('settings.prefs.refresh')}
              description={t('settings.prefs.refreshHint')}
              inputMode="numeric"
              value={form.refreshIntervalMinutes}
              onChange={(e) => change('refreshIntervalMinutes', e.currentTarget.value)}
              error={errors.refreshIntervalMinutes ? fieldMessage(errors.refreshIntervalMinutes, t) : undefined}
              data-testid="prefs-refresh"
            />
            <TextInput
              label={t('settings.prefs.stuck')}
              description={t('settings.prefs.stuckHint')}
              inputMode="numeric"
              value={form.stuckThresholdDays}
              onChange={(e) => change('stuckThresholdDays', e.currentTarget.value)}
              error={errors.stuckThresholdDays ? fieldMessage(errors.stuckThresholdDays, t) : undefined}
              data-testid="prefs-stuck"
            />
          </SimpleGrid>
          <Group mt="md" gap="md">
            <Button type="submit" loading={busy} data-testid="prefs-save">
              {t('settings.save')}
            </Button>
            <Text size="sm" c="teal" role="status" data-testid="prefs-status">
              {saved ? t('settings.saved') : ''}
            </Text>
          </Group>
        </form>
        <LanguageChoice />
        <AppearanceChoices />
      </Stack>
    </SectionCard>
  );
}

function LanguageChoice() {
  const t = useT();
  const stored = useSettingsStore((s) => s.settings?.preferences.language ?? 'system');
  const system = detectLanguage(null, navigator.language);
  const change = async (value: string | null) => {
    if (!value || value === stored) return;
    const result = await useSettingsStore.getState().setLanguage(value as PreferenceLanguage);
    if (!result.ok) toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };
  return (
    <Select
      label={t('settings.prefs.language')}
      description={t('settings.prefs.languageHint')}
      maw={360}
      value={stored}
      onChange={(v) => void change(v)}
      allowDeselect={false}
      data={[
        { value: 'system', label: t('settings.prefs.lang.system', { current: t(system === 'ru' ? 'settings.prefs.lang.ru' : 'settings.prefs.lang.en') }) },
        { value: 'ru', label: t('settings.prefs.lang.ru') },
        { value: 'en', label: t('settings.prefs.lang.en') },
      ]}
      data-testid="prefs-language"
    />
  );
}
