import { Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { CompanyDetails } from '../../../shared/schemas/settings';
import type { PlainMessageKey } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import { SectionCard } from './section-card';
import { checkCompany, companyForm, refusalErrors, settingsFieldMessage, type CompanyForm } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

const fields: readonly { key: keyof CompanyDetails; label: PlainMessageKey; hint?: PlainMessageKey; required?: boolean; span?: 2; inputMode?: 'numeric' | 'tel' | 'email' }[] = [
  { key: 'name', label: 'settings.company.name', required: true, span: 2 },
  { key: 'inn', label: 'settings.company.inn', hint: 'settings.company.innHint', inputMode: 'numeric' },
  { key: 'kpp', label: 'settings.company.kpp', inputMode: 'numeric' },
  { key: 'ogrn', label: 'settings.company.ogrn', inputMode: 'numeric' },
  { key: 'contactName', label: 'settings.company.contactName' },
  { key: 'legalAddress', label: 'settings.company.legalAddress', span: 2 },
  { key: 'phone', label: 'settings.company.phone', inputMode: 'tel' },
  { key: 'email', label: 'settings.company.email', inputMode: 'email' },
];

/** Company details: checked with the core's rules field by field before anything is sent. */
export function CompanySection() {
  const t = useT();
  const stored = useSettingsStore((s) => s.settings?.company);
  const [form, setForm] = useState<CompanyForm>(() => companyForm(stored ?? {}));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<'clean' | 'saved' | 'invalid'>('clean');

  const change = (key: keyof CompanyForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setState('clean');
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCompany(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      setState('invalid');
      return;
    }
    setBusy(true);
    const result = await useSettingsStore.getState().saveCompany(checked.value);
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error));
      setState(result.error.errors?.length ? 'invalid' : 'clean');
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    setErrors({});
    setState('saved');
    toastSuccess((tr) => tr('settings.saved'));
  };

  return (
    <SectionCard title={t('settings.company.title')} hint={t('settings.company.hint')} testId="company-section">
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {fields.map((f) => (
            <TextInput
              key={f.key}
              label={t(f.label)}
              description={f.hint ? t(f.hint) : undefined}
              withAsterisk={f.required}
              value={form[f.key]}
              onChange={(e) => change(f.key, e.currentTarget.value)}
              error={errors[f.key] ? settingsFieldMessage(errors[f.key], t) : undefined}
              inputMode={f.inputMode}
              style={f.span ? { gridColumn: '1 / -1' } : undefined}
              data-testid={`company-${f.key}`}
            />
          ))}
        </SimpleGrid>
        <Group mt="lg" gap="md">
          <Button type="submit" loading={busy} data-testid="company-save">
            {t('settings.save')}
          </Button>
          <Text size="sm" c={state === 'invalid' ? 'red' : 'teal'} role="status" data-testid="company-status">
            {state === 'saved' ? t('settings.saved') : state === 'invalid' ? t('settings.fixErrors') : ''}
          </Text>
        </Group>
      </form>
    </SectionCard>
  );
}
